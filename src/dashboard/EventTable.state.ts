import type { EventTable } from './followEvents';
import { formatCount } from './format';
import type { TimeRange } from './timeRanges';
import type { EventFilter, TableView } from './types';

/** Whether the filter narrows the table at all. */
export const isFiltered = (f: EventFilter) => Boolean(f.text.trim() || f.name || f.endpoint);

/** The names the picker offers: the store's, with the one chosen first when the store has none of it (any more). */
export const nameOptions = (filter: EventFilter, names: readonly string[]) => (filter.name && !names.includes(filter.name) ? [filter.name, ...names] : names);

/** What the rows of a view are called: one, several. */
export const ROW_NOUNS: Record<TableView, [one: string, many: string]> = { events: ['event', 'events'], conflicts: ['conflict', 'conflicts'] };

/** The line above the table: loading, how many rows it shows (the newest `maxRows` at most), and that it is live. */
export function tableStatus(
  table: EventTable | { status: 'signedOut' },
  filtered: boolean,
  range: TimeRange,
  maxRows: number,
  view: TableView = 'events',
): string {
  const [one, many] = ROW_NOUNS[view];
  if (table.status === 'loading') return `Loading ${many}…`;
  const rows = table.status === 'signedOut' ? [] : table.rows;
  if (rows.length === 0) return '';
  if (rows.length >= maxRows) return `The newest ${formatCount(maxRows)}${filtered ? ' matching' : ''} · live`;
  return `${formatCount(rows.length)} ${rows.length === 1 ? one : many}${filtered ? ' matching' : ''} in ${range.phrase} · live`;
}
