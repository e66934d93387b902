import { isFiltered, nameOptions, tableStatus } from '../../../src/dashboard/EventTable.state';
import type { EventTable } from '../../../src/dashboard/followEvents';
import { timeRangeOf } from '../../../src/dashboard/timeRanges';
import type { DashboardEvent } from '../../../src/dashboard/types';

const none = { text: '', name: '', endpoint: '' } as const;
const tableOf = (n: number, status: EventTable['status'] = 'ready'): EventTable => ({
  status,
  rows: Array.from({ length: n }, () => ({}) as DashboardEvent),
  skipped: false,
});

describe('EventTable view-model', () => {
  it('a filter narrows the table when any part is set (blank text is not)', () => {
    expect(isFiltered(none)).toBe(false);
    expect(isFiltered({ ...none, text: '  ' })).toBe(false);
    expect(isFiltered({ ...none, name: 'playerLoad' })).toBe(true);
  });

  it('the name picker keeps the chosen name first when the store does not list it', () => {
    expect(nameOptions({ ...none, name: 'gone' }, ['a', 'b'])).toEqual(['gone', 'a', 'b']);
    expect(nameOptions({ ...none, name: 'a' }, ['a', 'b'])).toEqual(['a', 'b']);
  });

  it('the status says loading, nothing for no rows, the count in the range, or the newest at most', () => {
    const range = timeRangeOf('5m');
    expect(tableStatus(tableOf(0, 'loading'), false, range, 3)).toBe('Loading events…');
    expect(tableStatus({ status: 'signedOut' }, false, range, 3)).toBe('');
    expect(tableStatus(tableOf(0), false, range, 3)).toBe('');
    expect(tableStatus(tableOf(1), true, range, 3)).toBe(`1 event matching in ${range.phrase} · live`);
    expect(tableStatus(tableOf(2), false, range, 3)).toBe(`2 events in ${range.phrase} · live`);
    expect(tableStatus(tableOf(3), false, range, 3)).toBe('The newest 3 · live');
  });
});
