/**
 * Progress of an ingest: the steps and their share of the work, ffmpeg's `-progress` lines read into seconds done,
 * and the text of the progress bar (a terminal) or of the plain lines (anything else). Pure: time comes in as numbers.
 */

/** One step of an ingest, with its label and its rough share of the whole run's time. */
export interface Step {
  label: string;
  weight: number;
}

/** The share of the time each kind of step takes (VP9 costs most, the poster next to nothing). */
export const STEP_WEIGHTS = { check: 1, h264: 30, vp9: 50, progressive: 8, poster: 1, storyboard: 10 } as const;

/** The seconds of output done, from one line of ffmpeg's `-progress` output (`out_time_us=…`), else `undefined`. */
export function progressSeconds(line: string): number | undefined {
  const m = /^out_time_(us|ms)=(\d+)\s*$/.exec(line);
  // ffmpeg's `out_time_ms` is in microseconds too (a long-standing misnomer).
  return m ? Number(m[2]) / 1_000_000 : undefined;
}

/** The whole run's fraction done: the steps before `index` in full, and `fraction` of step `index`. */
export function overallFraction(steps: readonly Step[], index: number, fraction: number): number {
  const total = steps.reduce((a, s) => a + s.weight, 0);
  const before = steps.slice(0, index).reduce((a, s) => a + s.weight, 0);
  const within = (steps[index]?.weight ?? 0) * Math.min(1, Math.max(0, fraction));
  return total === 0 ? 0 : (before + within) / total;
}

/** `m:ss` (or `h:mm:ss`) for a number of seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const hms = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  const [h, m, sec] = hms as [number, number, number];
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}` : `${m}:${String(sec).padStart(2, '0')}`;
}

/** The time left at this pace, or `undefined` while too little is done to tell. */
export const etaSeconds = (elapsedMs: number, fraction: number): number | undefined =>
  fraction < 0.01 || elapsedMs < 1000 ? undefined : ((elapsedMs / fraction) * (1 - fraction)) / 1000;

export interface BarState {
  fraction: number;
  label: string;
  step: number;
  steps: number;
  elapsedMs: number;
}

/** The one-line progress bar, at most `columns` wide: `[#####·····]  42%  3/6 VP9 ladder …  ETA 0:31`. */
export function formatBar({ fraction, label, step, steps, elapsedMs }: BarState, columns: number): string {
  const percent = `${String(Math.floor(fraction * 100)).padStart(3)}%`;
  const eta = etaSeconds(elapsedMs, fraction);
  const tail = `  ${percent}  ${step}/${steps} ${label}  ${eta === undefined ? 'ETA --:--' : `ETA ${clock(eta)}`}`;
  const barWidth = Math.max(10, Math.min(30, columns - tail.length - 3));
  const filled = Math.round(fraction * barWidth);
  const line = `[${'#'.repeat(filled)}${'·'.repeat(barWidth - filled)}]${tail}`;
  return line.length > columns ? line.slice(0, Math.max(0, columns - 1)) : line;
}

/** The plain line of a step's start: `ingest: [3/6] VP9 ladder (144p–480p)`. */
export const stepLine = (step: number, steps: number, label: string): string => `ingest: [${step}/${steps}] ${label}`;
