import { useMemo } from 'react';
import { CHART_CARDS, type ChartCardSpec } from './chartCards';
import type { ChartData, ChartFactory, ChartTheme } from './charts';
import type { Panel } from './dashboardState';
import type { Series } from './fillTimeseries';
import type { TimeRange } from './timeRanges';
import { TimeChart } from './TimeChart';

interface ChartCardProps {
  spec: ChartCardSpec;
  series: Series | undefined;
  range: TimeRange;
  loading: boolean;
  factory: ChartFactory;
  theme: ChartTheme;
}

function ChartCard({ spec, series, range, loading, factory, theme }: ChartCardProps) {
  const data = useMemo<ChartData | undefined>(
    () =>
      series ? { xs: series.xs, ys: spec.pick(series), more: spec.pickMore?.(series), xRange: [series.sinceMs / 1000, series.untilMs / 1000] } : undefined,
    [series, spec],
  );
  const headline = series ? spec.headline(series, range) : undefined;
  const empty = data !== undefined && !data.ys.some((v) => v !== null && v > 0);
  return (
    <article
      className={`card chart-card tone-${spec.color}`}
      data-chart={spec.key}
      data-total={series ? spec.total(series) : undefined}
      data-empty={empty || undefined}
      aria-busy={loading}
      aria-label={spec.title}
    >
      <header className="chart-head">
        <h3 title={spec.hint}>
          <span className="swatch" aria-hidden="true" />
          {spec.title}
        </h3>
        {headline ? (
          <p className="headline">
            <span className={`big${headline.tone === 'alert' ? ' alert' : ''}`} data-testid={`headline-${spec.key}`}>
              {headline.value}
            </span>
            {headline.unit && <span className="unit"> {headline.unit}</span>}
          </p>
        ) : (
          <p className="headline">
            <span className="skeleton skeleton-number" />
          </p>
        )}
      </header>
      <p className="caption">{headline ? headline.caption : '\u00a0'}</p>
      <div className="chart-area">
        {data ? <TimeChart factory={factory} spec={spec} theme={theme} data={data} /> : <div className="skeleton skeleton-chart" />}
        {empty && <p className="chart-empty">{spec.empty}</p>}
      </div>
    </article>
  );
}

/** The charts of the time range, each with its headline number. */
export function ChartGrid({ series, range, factory, theme }: { series: Panel<Series>; range: TimeRange; factory: ChartFactory; theme: ChartTheme }) {
  const data = series.status === 'ready' || series.status === 'failed' ? series.data : undefined;
  return (
    <section className="chart-grid" aria-label="Charts">
      {CHART_CARDS.map((spec) => (
        <ChartCard key={spec.key} spec={spec} series={data} range={range} loading={series.status === 'loading'} factory={factory} theme={theme} />
      ))}
    </section>
  );
}
