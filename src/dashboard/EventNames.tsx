import type { Panel } from './dashboardState';
import { categoryOf } from './eventSummary';
import { formatCount, formatPercent } from './format';
import type { CollectorStats } from './types';

/** At most this many names are listed (the busiest). */
const SHOWN_NAMES = 14;

/** Events stored per name, busiest first, as bars; picking one narrows the table to it (picking it again widens). */
export function EventNames({ stats, selected, onSelect }: { stats: Panel<CollectorStats>; selected: string; onSelect: (name: string) => void }) {
  const data = stats.status === 'ready' || stats.status === 'failed' ? stats.data : undefined;
  const names = data ? Object.entries(data.byName).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])) : [];
  const max = names[0]?.[1] ?? 0;
  const total = names.reduce((sum, [, n]) => sum + n, 0);
  return (
    <section className="card names" aria-label="Events by name">
      <h2>By name</h2>
      {!data ? (
        <div className="skeleton-list" aria-busy="true">
          {[0, 1, 2, 3].map((i) => (
            <span key={i} className="skeleton skeleton-line" />
          ))}
        </div>
      ) : names.length === 0 ? (
        <p className="empty-note">No events stored yet.</p>
      ) : (
        <ul className="name-list">
          {names.slice(0, SHOWN_NAMES).map(([name, count]) => (
            <li key={name}>
              <button
                type="button"
                className={`name-row cat-${categoryOf(name)}`}
                aria-pressed={selected === name}
                onClick={() => onSelect(selected === name ? '' : name)}
                title={`${count.toLocaleString()} ${name} (${formatPercent(count, total)}) — show them in the table`}
                data-name={name}
              >
                <span className="name-bar" style={{ width: `${Math.max(2, (count / max) * 100)}%` }} aria-hidden="true" />
                <span className="name-label">{name}</span>
                <span className="name-count">{formatCount(count)}</span>
              </button>
            </li>
          ))}
          {names.length > SHOWN_NAMES && <li className="more-note">and {names.length - SHOWN_NAMES} more</li>}
        </ul>
      )}
    </section>
  );
}
