/**
 * Where an ingest shows its progress: a bar redrawn in place on a terminal, or one line per step anywhere else (a log,
 * CI, a pipe). Both write to the stream they are given (stderr), so stdout carries only the result.
 */
import type { Reporter } from './encodeVersion';
import { formatBar, overallFraction, stepLine, type Step } from './progress';

/** The bar is redrawn at most this often. */
const BAR_REDRAW_MS = 200;

/** A terminal's bar: one line, redrawn in place. */
export function barReporter(out: NodeJS.WriteStream): Reporter & { end(): void } {
  const started = Date.now();
  let steps: readonly Step[] = [];
  let current = 0;
  let lastDraw = 0;
  const draw = (fraction: number, force: boolean) => {
    const now = Date.now();
    if (!force && now - lastDraw < BAR_REDRAW_MS) return;
    lastDraw = now;
    const state = {
      fraction: overallFraction(steps, current, fraction),
      label: steps[current]?.label ?? '',
      step: current + 1,
      steps: steps.length,
      elapsedMs: now - started,
    };
    out.write(`\r${formatBar(state, out.columns || 80)}\x1b[K`);
  };
  return {
    step(index, all) {
      steps = all;
      current = index;
      draw(0, true);
    },
    progress(index, fraction) {
      current = index;
      draw(fraction, fraction >= 1);
    },
    end: () => out.write('\r\x1b[K'),
  };
}

/** Anything but a terminal: one line as each step starts. */
export function lineReporter(out: NodeJS.WritableStream): Reporter & { end(): void } {
  return {
    step: (index, steps) => void out.write(`${stepLine(index + 1, steps.length, steps[index]?.label ?? '')}\n`),
    progress: () => undefined,
    end: () => undefined,
  };
}
