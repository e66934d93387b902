import { eventKey } from './followEvents';
import { categoryOf, summarizeEvent } from './eventSummary';
import { formatClock, formatDateTime } from './format';
import type { DashboardEvent } from './types';

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

/** One event's row (a click shows or hides its JSON) and, when open, the row of its details. */
function EventRow({ event, expanded, onToggle }: { event: DashboardEvent; expanded: boolean; onToggle: () => void }) {
  return (
    <>
      <tr className={expanded ? 'row open' : 'row'} data-testid="event-row" data-name={event.name} onClick={onToggle}>
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
    </>
  );
}

/** The table of events, newest first; `open` holds the keys of the events whose JSON shows. */
export function EventRows({ rows, open, onToggle }: { rows: readonly DashboardEvent[]; open: ReadonlySet<string>; onToggle: (key: string) => void }) {
  return (
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
            return <EventRow key={key} event={event} expanded={open.has(key)} onToggle={() => onToggle(key)} />;
          })}
        </tbody>
      </table>
    </div>
  );
}
