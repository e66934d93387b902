import type { ChartSpec } from './charts';
import type { Series } from './fillTimeseries';
import { formatCount, formatDuration, formatMs, formatRate } from './format';

const present = (values: readonly (number | null)[]): number[] => values.filter((v): v is number => v !== null);
const sumOf = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const percent = (ratio: number) => `${(ratio * 100).toFixed(ratio < 0.1 ? 2 : 1)} %`;
const bitrate = (bps: number) => (bps >= 1e6 ? `${(bps / 1e6).toFixed(2)} Mbps` : `${Math.round(bps / 1e3)} kbps`);
/** The latest value of a series that has one, or `null`. */
const latest = (values: readonly (number | null)[]): number | null => present(values).at(-1) ?? null;
import type { TimeRange } from './timeRanges';

/** The big number of a chart card, its unit, and the line under it. */
export interface Headline {
  value: string;
  unit?: string;
  caption: string;
  /** `alert` colours the number (errors). */
  tone?: 'alert';
}

/** One chart card: the chart's spec, the series it plots, its headline and what it says when it has nothing. */
export interface ChartCardSpec extends ChartSpec {
  title: string;
  /** What the chart measures, for the card's description. */
  hint: string;
  pick(series: Series): (number | null)[];
  /** The values of the spec's further lines (`more`), in order. */
  pickMore?(series: Series): (number | null)[][];
  headline(series: Series, range: TimeRange): Headline;
  /** The card's summary number (its `data-total`): what it counted over the window. */
  total(series: Series): number;
  /** Shown over a chart with nothing to plot. */
  empty: string;
}

/** The charts, in reading order: traffic, then the viewers' quality of experience. */
export const CHART_CARDS: readonly ChartCardSpec[] = [
  {
    key: 'events',
    title: 'Events per second',
    hint: 'Events stored by the collector, per second of arrival.',
    label: 'events/s',
    kind: 'area',
    color: 'events',
    format: (v) => `${formatRate(v)} events/s`,
    pick: (s) => s.eventsPerSec,
    total: (s) => s.totals.events,
    headline: ({ totals }, range) => ({
      value: formatCount(totals.events),
      unit: totals.events === 1 ? 'event' : 'events',
      caption: `now ${formatRate(totals.latestEventsPerSec)}/s · peak ${formatRate(totals.peakEventsPerSec)}/s in ${range.phrase}`,
    }),
    empty: 'No events yet',
  },
  {
    key: 'sessions',
    title: 'Sessions',
    hint: 'Viewing sessions (streams) that sent events in each interval.',
    label: 'sessions',
    kind: 'step',
    color: 'sessions',
    format: (v) => `${formatCount(v)} ${v === 1 ? 'session' : 'sessions'}`,
    pick: (s) => s.sessions,
    total: (s) => s.totals.peakSessions,
    headline: ({ totals }, range) => ({
      value: formatCount(totals.recentSessions),
      unit: 'in the last minute',
      caption: `peak ${formatCount(totals.peakSessions)} at once in ${range.phrase}`,
    }),
    empty: 'No sessions yet',
  },
  {
    key: 'watch',
    title: 'Watch time',
    hint: 'Seconds of video watched, from the players’ watch-time segments.',
    label: 'watched',
    kind: 'bars',
    color: 'watch',
    format: (v) => `${formatDuration(v)} watched`,
    axis: (v) => formatDuration(v),
    pick: (s) => s.watchTimeSec,
    total: (s) => s.totals.watchTimeSec,
    headline: ({ totals }, range) => ({ value: formatDuration(totals.watchTimeSec), caption: `watched in ${range.phrase}` }),
    empty: 'Nothing watched yet',
  },
  {
    key: 'states',
    title: 'State changes',
    hint: 'Player state changes: play, pause, buffering, end.',
    label: 'state changes',
    kind: 'bars',
    color: 'state',
    format: (v) => `${formatCount(v)} state ${v === 1 ? 'change' : 'changes'}`,
    pick: (s) => s.stateChanges,
    total: (s) => s.totals.stateChanges,
    headline: ({ totals }, range) => ({ value: formatCount(totals.stateChanges), caption: `in ${range.phrase}` }),
    empty: 'No state changes yet',
  },
  {
    key: 'errors',
    title: 'Errors',
    hint: 'Player errors plus reports at the error endpoint.',
    label: 'errors',
    kind: 'bars',
    color: 'errors',
    format: (v) => `${formatCount(v)} ${v === 1 ? 'error' : 'errors'}`,
    pick: (s) => s.errors,
    total: (s) => s.totals.errors,
    headline: ({ totals }, range) =>
      totals.errors > 0
        ? { value: formatCount(totals.errors), caption: `in ${range.phrase}`, tone: 'alert' }
        : { value: '0', caption: `none in ${range.phrase}` },
    empty: 'No errors',
  },
  {
    key: 'latency',
    title: 'Latency',
    hint: 'Mean start-up latency the players reported (navigation start → ready, → first playing).',
    label: 'latency',
    kind: 'line',
    color: 'latency',
    format: (v) => `${formatMs(v)} mean`,
    axis: (v) => formatMs(v),
    pick: (s) => s.latencyMeanMs,
    total: (s) => s.latencyMeanMs.filter((v) => v !== null).length,
    headline: ({ totals }) =>
      totals.latencyMeanMs === null
        ? { value: '–', caption: 'no latency reports yet' }
        : { value: formatMs(totals.latencyMeanMs), caption: 'mean of the reports in the window' },
    empty: 'No latency reports yet',
  },
  {
    key: 'rebuffer',
    title: 'Rebuffer ratio',
    hint: 'Time spent rebuffering over time watched: waiting for data after playback started, seeks excluded.',
    label: 'rebuffer ratio',
    kind: 'line',
    color: 'errors',
    format: (v) => percent(v),
    axis: (v) => `${formatRate(v * 100)} %`,
    pick: (s) => s.rebufferRatio,
    total: (s) => sumOf(s.rebufferSec),
    headline: ({ rebufferSec, totals }, range) =>
      totals.watchTimeSec > 0
        ? { value: percent(sumOf(rebufferSec) / totals.watchTimeSec), caption: `${formatDuration(sumOf(rebufferSec))} rebuffering in ${range.phrase}` }
        : { value: '–', caption: `nothing watched in ${range.phrase}` },
    empty: 'No rebuffering',
  },
  {
    key: 'bitrate',
    title: 'Bitrate',
    hint: 'Bitrate of the renditions on screen, weighted by how long each played.',
    label: 'bitrate',
    kind: 'line',
    color: 'watch',
    format: (v) => bitrate(v),
    axis: (v) => (v >= 1e6 ? `${formatRate(v / 1e6)} Mbps` : `${formatRate(v / 1e3)} kbps`),
    pick: (s) => s.bitrateMeanBps,
    total: (s) => present(s.bitrateMeanBps).length,
    headline: ({ bitrateMeanBps }) => {
      const now = latest(bitrateMeanBps);
      return now === null ? { value: '–', caption: 'nothing played yet' } : { value: bitrate(now), caption: 'time-weighted, latest interval' };
    },
    empty: 'Nothing played yet',
  },
  {
    key: 'startup',
    title: 'Start-up time',
    hint: 'From a video’s load to its first frame playing: the median (p50), with p90 and p99.',
    label: 'p50',
    kind: 'line',
    color: 'latency',
    format: (v) => formatMs(v),
    axis: (v) => formatMs(v),
    more: [{ label: 'p90' }, { label: 'p99' }],
    pick: (s) => s.startupP50Ms,
    pickMore: (s) => [s.startupP90Ms, s.startupP99Ms],
    total: (s) => present(s.startupP50Ms).length,
    headline: ({ startupP50Ms, startupP90Ms, startupP99Ms }) => {
      const p50 = latest(startupP50Ms);
      const p90 = latest(startupP90Ms);
      const p99 = latest(startupP99Ms);
      return p50 === null
        ? { value: '–', caption: 'no playback started yet' }
        : { value: formatMs(p50), unit: 'p50', caption: `p90 ${formatMs(p90 ?? p50)} · p99 ${formatMs(p99 ?? p50)}, latest interval` };
    },
    empty: 'No playback started yet',
  },
];
