import type { LogEntry } from './eventLog';

const STATE_NAMES: Record<number, string> = { [-1]: 'unstarted', 0: 'ended', 1: 'playing', 2: 'paused', 3: 'buffering', 5: 'cued' };

function describe(entry: LogEntry): string {
  if (entry.name === 'onStateChange' && typeof entry.data === 'number') return `${entry.data} · ${STATE_NAMES[entry.data] ?? '?'}`;
  if (entry.data === null || entry.data === undefined) return '';
  return typeof entry.data === 'string' ? entry.data : JSON.stringify(entry.data);
}

/** The events the embed sent, newest first. */
export function EventLog({ entries, onClear }: { entries: LogEntry[]; onClear: () => void }) {
  return (
    <section className="log card" aria-label="Event log">
      <h2>
        Events <span className="count">{entries.length}</span>
        <button type="button" className="ghost" onClick={onClear} disabled={entries.length === 0} data-testid="clear-log">
          Clear
        </button>
      </h2>
      {entries.length === 0 ? (
        <p className="empty">No events yet. They appear here as the embed sends them.</p>
      ) : (
        <ol className="entries" data-testid="event-log">
          {entries.map((e) => (
            <li key={e.seq} className={`entry entry-${e.name}`} data-event={e.name} data-data={JSON.stringify(e.data ?? null)}>
              <time>{(e.at / 1000).toFixed(2)} s</time>
              <span className="name">{e.name}</span>
              <code className="data">{describe(e)}</code>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
