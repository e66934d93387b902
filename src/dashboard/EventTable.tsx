import { Fragment, useState } from 'react';
import { eventKey, type EventTable as EventTableState } from './followEvents';
import { categoryOf, summarizeEvent } from './eventSummary';
import { formatClock, formatCount, formatDateTime } from './format';
import type { TimeRange } from './timeRanges';
import { COLLECTOR_ENDPOINTS, type DashboardEvent, type EventFilter } from './types';

interface EventTableProps {
  table: EventTableState | { status: 'signedOut' };
  filter: EventFilter;
  onFilter: (filter: EventFilter) => void;
  /** The names the name picker offers (from the store's totals). */
  names: readonly string[];
  range: TimeRange;
  maxRows: number;
}

const isFiltered = (f: EventFilter) => Boolean(f.text.trim() || f.name || f.endpoint);

function EventDetail({ event }: { event: DashboardEvent }) {
  const facts: [string, string | undefined][] = [
    ['Received', formatDateTime(event.receivedAtMs)],
    ['Event time', event.eventTimeMs === undefined ? undefined : formatDateTime(event.eventTimeMs)],
    ['Client event id', event.clientEventId],
    ['Stream', event.stream],
    ['Account', event.accountId],
    ['Channel', event.channelId],
    ['Request', event.requestId],
    ['Value', event.value === undefined ? undefined : String(event.value)],
  ];
  return (
    <div className="event-detail">
      <dl>
        {facts
          .filter((f): f is [string, string] => f[1] !== undefined)
          .map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>
                <code>{value}</code>
              </dd>
            </div>
          ))}
      </dl>
      <pre className="json">{JSON.stringify(event.event, null, 2)}</pre>
    </div>
  );
}

/** The live table of the newest events, searchable, with each event's JSON a click away. */
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
  const filtered = isFiltered(filter);
  const nameOptions = filter.name && !names.includes(filter.name) ? [filter.name, ...names] : names;

  let status: string;
  if (loading) status = 'Loading events…';
  else if (rows.length === 0) status = '';
  else if (rows.length >= maxRows) status = `The newest ${formatCount(maxRows)}${filtered ? ' matching' : ''} · live`;
  else status = `${formatCount(rows.length)} ${rows.length === 1 ? 'event' : 'events'}${filtered ? ' matching' : ''} in ${range.phrase} · live`;

  return (
    <section className="card events" aria-label="Events">
      <div className="events-head">
        <h2>Events</h2>
        <p className="events-status" role="status" data-testid="table-status">
          {status}
        </p>
      </div>
      <div className="toolbar" role="search">
        <input
          type="search"
          className="search"
          placeholder="Search names and payloads…"
          aria-label="Search events"
          value={filter.text}
          onChange={(e) => onFilter({ ...filter, text: e.target.value })}
        />
        <select aria-label="Event name" value={filter.name} onChange={(e) => onFilter({ ...filter, name: e.target.value })}>
          <option value="">All names</option>
          {nameOptions.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
        <select aria-label="Endpoint" value={filter.endpoint} onChange={(e) => onFilter({ ...filter, endpoint: e.target.value as EventFilter['endpoint'] })}>
          <option value="">All endpoints</option>
          {COLLECTOR_ENDPOINTS.map((endpoint) => (
            <option key={endpoint} value={endpoint}>
              {endpoint}
            </option>
          ))}
        </select>
        {filtered && (
          <button type="button" className="ghost" onClick={() => onFilter({ text: '', name: '', endpoint: '' })}>
            Clear
          </button>
        )}
      </div>
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
        <div className="empty-state" data-testid="table-empty">
          {filtered ? (
            <>
              <p className="empty-title">No events match.</p>
              <p>
                Nothing in {range.phrase} matches{filter.text.trim() ? ` “${filter.text.trim()}”` : ''}
                {filter.name ? ` named ${filter.name}` : ''}
                {filter.endpoint ? ` at ${filter.endpoint}` : ''}.
              </p>
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
      ) : (
        <div className="table-scroll">
          <table className="event-table">
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Event</th>
                <th scope="col">Details</th>
                <th scope="col">Session</th>
                <th scope="col">Endpoint</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((event) => {
                const key = eventKey(event);
                const expanded = open.has(key);
                return (
                  <Fragment key={key}>
                    <tr className={expanded ? 'row open' : 'row'} data-testid="event-row" data-name={event.name} onClick={() => toggle(key)}>
                      <td className="time">
                        <button
                          type="button"
                          className="row-toggle"
                          aria-expanded={expanded}
                          aria-label={`${expanded ? 'Hide' : 'Show'} the JSON of this ${event.name} event`}
                        >
                          <span className="chevron" aria-hidden="true" />
                        </button>
                        <time dateTime={new Date(event.receivedAtMs).toISOString()}>{formatClock(event.receivedAtMs, { millis: true })}</time>
                      </td>
                      <td>
                        <span className={`badge cat-${categoryOf(event.name)}`}>{event.name}</span>
                      </td>
                      <td className="summary">{summarizeEvent(event)}</td>
                      <td className="session">
                        <code title={event.stream}>{event.stream.slice(0, 8)}</code>
                      </td>
                      <td className="endpoint">{event.endpoint}</td>
                    </tr>
                    {expanded && (
                      <tr className="detail-row">
                        <td colSpan={5}>
                          <EventDetail event={event} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
