/**
 * The seam between the dashboard's React views and the chart library: a view hands a container, a spec, a theme and
 * data to a {@link ChartFactory} and gets a handle back. The page passes the uPlot factory (`uplotChart.ts`); tests
 * pass a fake that records what it was given (jsdom has no canvas).
 */

export type ColorScheme = 'light' | 'dark';

/** The palette keys of the six charts. */
export type SeriesColor = 'events' | 'sessions' | 'watch' | 'state' | 'errors' | 'latency';

export interface ChartSpec {
  /** Stable id (`events`, …): the card's `data-chart`. */
  key: string;
  /** The series name in the tooltip. */
  label: string;
  /** `area`: line with a soft fill; `bars`: one bar per bucket; `step`: a stepped area; `line`: points joined, gaps kept. */
  kind: 'area' | 'bars' | 'step' | 'line';
  color: SeriesColor;
  /** A value as the tooltip shows it. */
  format(value: number): string;
  /** A tick of the y axis, with its unit where the number alone does not say it (default: the number alone). */
  axis?(value: number): string;
  /** Further lines on the same axes, fainter (their values in {@link ChartData.more}, in this order). */
  more?: readonly { label: string }[];
}

export interface ChartTheme {
  scheme: ColorScheme;
  /** Axis labels. */
  axis: string;
  /** Grid lines. */
  grid: string;
  /** Series colours. */
  series: Record<SeriesColor, string>;
  font: string;
}

export interface ChartData {
  /** Seconds since the epoch. */
  xs: number[];
  ys: (number | null)[];
  /** The values of the spec's further lines, one array per line. */
  more?: (number | null)[][];
  /** The x range shown (seconds), so the axis keeps the whole window when the data is sparse. */
  xRange: [number, number];
}

export interface ChartHandle {
  setData(data: ChartData): void;
  destroy(): void;
}

export type ChartFactory = (container: HTMLElement, spec: ChartSpec, theme: ChartTheme, data: ChartData) => ChartHandle;

const FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** The charts' colours, matching `dashboard.css` (the canvas cannot read CSS variables by itself). */
export const CHART_THEMES: Record<ColorScheme, ChartTheme> = {
  light: {
    scheme: 'light',
    axis: '#6b7280',
    grid: 'rgba(17, 24, 39, 0.07)',
    font: FONT,
    series: { events: '#4f46e5', sessions: '#0891b2', watch: '#059669', state: '#d97706', errors: '#e11d48', latency: '#7c3aed' },
  },
  dark: {
    scheme: 'dark',
    axis: '#9ca3af',
    grid: 'rgba(255, 255, 255, 0.07)',
    font: FONT,
    series: { events: '#818cf8', sessions: '#22d3ee', watch: '#34d399', state: '#fbbf24', errors: '#fb7185', latency: '#a78bfa' },
  },
};
