import type { Panel } from './dashboardState';
import { formatCount, formatPercent } from './format';
import type { CollectorStats } from './types';

interface Tile {
  key: string;
  label: string;
  value: (s: CollectorStats) => number;
  caption: (s: CollectorStats) => string;
  alertWhenAbove0?: boolean;
}

const TILES: readonly Tile[] = [
  {
    key: 'events',
    label: 'Events stored',
    value: (s) => s.events,
    caption: (s) => `log_event ${formatCount(s.byEndpoint.log_event)} · video_stats ${formatCount(s.byEndpoint.video_stats)}`,
  },
  {
    key: 'requests',
    label: 'Log requests',
    value: (s) => s.requests,
    caption: (s) => (s.requests ? `${formatPercent(s.compressedRequests, s.requests)} gzip-compressed` : 'none yet'),
  },
  { key: 'duplicates', label: 'Duplicates dropped', value: (s) => s.duplicatesDropped, caption: () => 'resent events, stored once' },
  {
    key: 'conflicts',
    label: 'Conflicts',
    value: (s) => s.conflicts,
    caption: () => 'an id sent again with another payload: both kept',
    alertWhenAbove0: true,
  },
  { key: 'refused', label: 'Refused events', value: (s) => s.refusedEvents, caption: () => 'failed validation', alertWhenAbove0: true },
  { key: 'errors', label: 'Error reports', value: (s) => s.errors, caption: () => 'from players’ error endpoint', alertWhenAbove0: true },
];

/** The store's totals since it began (not limited to the charts' time range). */
export function StatTiles({ stats }: { stats: Panel<CollectorStats> }) {
  const data = stats.status === 'ready' || stats.status === 'failed' ? stats.data : undefined;
  return (
    <section className="tiles" aria-label="Totals" aria-busy={stats.status === 'loading'}>
      {TILES.map((tile) => {
        const value = data ? tile.value(data) : undefined;
        return (
          <div key={tile.key} className="card tile" data-stat={tile.key} data-value={value}>
            <span className="tile-label">{tile.label}</span>
            {data && value !== undefined ? (
              <>
                <span className={`tile-value${tile.alertWhenAbove0 && value > 0 ? ' alert' : ''}`} title={value.toLocaleString()}>
                  {formatCount(value)}
                </span>
                <span className="tile-caption">{tile.caption(data)}</span>
              </>
            ) : (
              <>
                <span className="skeleton skeleton-number" />
                <span className="tile-caption">&nbsp;</span>
              </>
            )}
          </div>
        );
      })}
    </section>
  );
}
