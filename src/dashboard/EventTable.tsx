import { useState } from 'react';
import { EventFilterBar } from './EventFilterBar';
import { EventRows } from './EventRows';
import { isFiltered, ROW_NOUNS, tableStatus } from './EventTable.state';
import type { EventTable as EventTableState } from './followEvents';
import type { TimeRange } from './timeRanges';
import type { EventFilter, TableView } from './types';

interface EventTableProps {
  table: EventTableState | { status: 'signedOut' };
  filter: EventFilter;
  onFilter: (filter: EventFilter) => void;
  /** The names the name picker offers (from the store's totals). */
  names: readonly string[];
  range: TimeRange;
  maxRows: number;
}

const VIEWS: readonly { view: TableView; label: string }[] = [
  { view: 'events', label: 'Events' },
  { view: 'conflicts', label: 'Conflicts' },
];

/** What the table says when it has no rows: nothing matches the filter, or nothing arrived in the range. */
function EmptyTable({ filter, range }: { filter: EventFilter; range: TimeRange }) {
  const many = ROW_NOUNS[filter.view ?? 'events'][1];
  return (
    <div className="empty-state" data-testid="table-empty">
      {isFiltered(filter) ? (
        <>
          <p className="empty-title">No {many} match.</p>
          <p>
            Nothing in {range.phrase} matches{filter.text.trim() ? ` “${filter.text.trim()}”` : ''}
            {filter.name ? ` named ${filter.name}` : ''}
            {filter.endpoint ? ` at ${filter.endpoint}` : ''}.
          </p>
        </>
      ) : filter.view === 'conflicts' ? (
        <>
          <p className="empty-title">No conflicts in {range.phrase}.</p>
          <p>An event id sent again with another payload would show here, its first arrival kept among the events.</p>
        </>
      ) : (
        <>
          <p className="empty-title">No events in {range.phrase}.</p>
          <p>
            Play a video on a page that embeds the player — the{' '}
            <a href="/" target="_blank" rel="noopener">
              demo page
            </a>{' '}
            does — and its events show up here within seconds.
          </p>
        </>
      )}
    </div>
  );
}

/**
 * The live table of the newest events — or of the conflicting copies of events (an id stored before with another
 * payload; both copies are kept) — searchable, with each event's JSON a click away.
 */
export function EventTable({ table, filter, onFilter, names, range, maxRows }: EventTableProps) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (key: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const rows = table.status === 'signedOut' ? [] : table.rows;
  const loading = table.status === 'loading';
  const view = filter.view ?? 'events';

  return (
    <section className="card events" aria-label="Events">
      <div className="events-head">
        <h2>{view === 'conflicts' ? 'Conflicting events' : 'Events'}</h2>
        <div className="segmented" role="group" aria-label="Table lists">
          {VIEWS.map((v) => (
            <button key={v.view} type="button" aria-pressed={v.view === view} onClick={() => onFilter({ ...filter, view: v.view })}>
              {v.label}
            </button>
          ))}
        </div>
        <p className="events-status" role="status" data-testid="table-status">
          {tableStatus(table, isFiltered(filter), range, maxRows, view)}
        </p>
      </div>
      <EventFilterBar filter={filter} onFilter={onFilter} names={names} />
      {table.status === 'failed' && (
        <p className="notice warn" role="alert">
          The table could not be refreshed: {table.message} Retrying.
        </p>
      )}
      {table.status !== 'signedOut' && table.skipped && (
        <p className="notice info">Events arrive faster than the table reads them: it skipped some to stay live. The charts count every event.</p>
      )}
      {loading ? (
        <div className="skeleton-list" aria-busy="true">
          {[0, 1, 2, 3, 4].map((i) => (
            <span key={i} className="skeleton skeleton-line" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <EmptyTable filter={filter} range={range} />
      ) : (
        <EventRows rows={rows} open={open} onToggle={toggle} />
      )}
    </section>
  );
}
