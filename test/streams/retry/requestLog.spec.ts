import { createRequestLog, type TextStore } from '../../../streams/retry/requestLog';

const DAY = 24 * 60 * 60 * 1000;
const memoryStore = (): TextStore & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return { data, get: (k) => data.get(k), set: (k, v) => void data.set(k, v) };
};
const entry = (timeMs: number, outcome = 'sent') => ({ timeMs, endpoint: 'log_event', outcome, eventCount: 3 });

describe('createRequestLog', () => {
  it('keeps an entry for 1 day (production value): 1 ms younger is kept, exactly 1 day old has expired', async () => {
    const store = memoryStore();
    const log = createRequestLog(store);
    const now = 10 * DAY;
    log.append(entry(now - DAY));
    log.append(entry(now - DAY + 1));
    expect(log.read(now)).toEqual([entry(now - DAY + 1)]);
    await expect(log.removeExpired(now)).resolves.toBe(1);
    expect(JSON.parse(store.data.get('vidframe.requestLog')!)).toEqual([entry(now - DAY + 1)]);
    await expect(log.removeExpired(now)).resolves.toBe(0);
  });

  it('keeps at most 200 entries (the newest), and reads junk as an empty log', () => {
    const store = memoryStore();
    const log = createRequestLog(store);
    for (let i = 0; i < 205; i++) log.append(entry(1000 + i));
    const all = log.read(2000);
    expect(all).toHaveLength(200);
    expect(all[0].timeMs).toBe(1005);
    store.data.set('vidframe.requestLog', '{not json');
    expect(log.read(2000)).toEqual([]);
    store.data.set('vidframe.requestLog', JSON.stringify([{ timeMs: 'x' }, entry(1999)]));
    expect(log.read(2000)).toEqual([entry(1999)]);
  });
});
