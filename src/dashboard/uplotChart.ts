import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ChartData, ChartFactory, ChartSpec } from './charts';
import { formatDateTime, formatRate } from './format';

/** Chart height in CSS pixels (the width follows the card). */
const CHART_HEIGHT_PX = 132;
/** Charts that share this key share their cursor: hovering one shows the same moment in all. */
const CURSOR_SYNC_KEY = 'vidframe-dashboard';

/** `#rrggbb` at `alpha`. */
function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/** `14:03` when every tick is a whole minute, `14:03:30` otherwise. */
function timeTicks(_u: uPlot, splits: number[]): string[] {
  const seconds = splits.some((s) => Math.round(s) % 60 !== 0);
  return splits.map((s) => {
    const d = new Date(s * 1000);
    const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    return seconds ? `${hm}:${String(d.getSeconds()).padStart(2, '0')}` : hm;
  });
}

function pathsOf(kind: ChartSpec['kind']): uPlot.Series.PathBuilder | undefined {
  const paths = uPlot.paths;
  switch (kind) {
    case 'bars':
      return paths.bars?.({ size: [0.72, 28, 3], align: 1 });
    case 'step':
      return paths.stepped?.({ align: 1 });
    case 'area':
      return paths.spline?.();
    default:
      return undefined; // linear
  }
}

/**
 * The dashboard's charts with uPlot: one series on a fixed time window, y from zero, a soft gradient under lines,
 * a tooltip that follows the cursor (synchronised across the charts), and the width of its container as it resizes.
 * Colours come from the theme (the canvas does not read CSS); styles are set through the CSSOM only (CSP-safe).
 */
export const createUplotChart: ChartFactory = (container, spec, theme, initial) => {
  const color = theme.series[spec.color];
  let xRange = initial.xRange;
  const axis = {
    stroke: theme.axis,
    font: theme.font,
    grid: { stroke: theme.grid, width: 1 },
    ticks: { show: false },
    gap: 4,
  };

  const tip = document.createElement('div');
  tip.className = 'chart-tip';
  tip.hidden = true;
  const showTip = (u: uPlot) => {
    const { idx, left, top } = u.cursor;
    const x = idx === null || idx === undefined ? undefined : u.data[0][idx];
    const y = idx === null || idx === undefined ? null : (u.data[1]?.[idx] as number | null | undefined);
    const more = (spec.more ?? []).map((line, i) => {
      const v = idx === null || idx === undefined ? null : (u.data[i + 2]?.[idx] as number | null | undefined);
      return `  ·  ${line.label} ${v === null || v === undefined ? '–' : spec.format(v)}`;
    });
    if (x === undefined || left === undefined || left < 0 || top === undefined) {
      tip.hidden = true;
      return;
    }
    tip.hidden = false;
    tip.textContent = `${formatDateTime(x * 1000)}  ·  ${y === null || y === undefined ? 'no data' : spec.format(y)}${more.join('')}`;
    const width = tip.offsetWidth;
    tip.style.left = `${Math.min(Math.max(0, left - width / 2), u.over.clientWidth - width)}px`;
    tip.style.top = `${Math.max(0, top - 34)}px`;
  };

  const options: uPlot.Options = {
    width: Math.max(160, container.clientWidth),
    height: CHART_HEIGHT_PX,
    padding: [10, 10, 0, 2],
    legend: { show: false },
    cursor: {
      sync: { key: CURSOR_SYNC_KEY },
      drag: { x: false, y: false, setScale: false },
      points: { size: 7, fill: color, stroke: color },
      y: false,
    },
    scales: {
      x: { time: true, range: () => [xRange[0], xRange[1]] },
      y: { range: (_u, _min, max) => uPlot.rangeNum(0, max > 0 ? max : 1, 0.1, true) },
    },
    axes: [
      { ...axis, gap: 9, space: 72, size: 30, values: timeTicks },
      // Ticks with a unit ("850 ms") need a wider axis than bare numbers.
      { ...axis, space: 28, size: spec.axis ? 52 : 42, values: (_u, splits) => splits.map((v) => (spec.axis ?? formatRate)(v)) },
    ],
    series: [
      {},
      {
        label: spec.label,
        stroke: color,
        width: spec.kind === 'bars' ? 0 : 2,
        fill:
          spec.kind === 'bars'
            ? withAlpha(color, 0.75)
            : spec.kind === 'line'
              ? undefined
              : (u: uPlot) => {
                  const gradient = u.ctx.createLinearGradient(0, u.bbox.top, 0, u.bbox.top + u.bbox.height);
                  gradient.addColorStop(0, withAlpha(color, 0.32));
                  gradient.addColorStop(1, withAlpha(color, 0.02));
                  return gradient;
                },
        paths: pathsOf(spec.kind),
        points: { show: spec.kind === 'line', size: 5, fill: color },
        spanGaps: spec.kind === 'line',
      },
      ...(spec.more ?? []).map((line, i) => ({
        label: line.label,
        stroke: withAlpha(color, 0.6 - i * 0.2),
        width: 1.5,
        points: { show: true, size: 4, fill: withAlpha(color, 0.6 - i * 0.2) },
        spanGaps: true,
      })),
    ],
    hooks: { setCursor: [showTip] },
  };

  const toAligned = (data: ChartData): uPlot.AlignedData => [data.xs, data.ys, ...(spec.more ?? []).map((_, i) => data.more?.[i] ?? data.xs.map(() => null))];
  const plot = new uPlot(options, toAligned(initial), container);
  plot.over.appendChild(tip);

  const resize = new ResizeObserver(() => {
    const width = Math.max(160, container.clientWidth);
    if (width !== plot.width) plot.setSize({ width, height: CHART_HEIGHT_PX });
  });
  resize.observe(container);

  return {
    setData: (data) => {
      xRange = data.xRange;
      plot.setData(toAligned(data));
    },
    destroy: () => {
      resize.disconnect();
      plot.destroy();
    },
  };
};
