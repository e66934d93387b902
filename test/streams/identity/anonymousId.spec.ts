import type { Observable } from 'rxjs';
import { anonymousId, type AnonymousIdState } from '../../../streams/identity/anonymousId';
import { ANONYMOUS_ID_MAX_RETRIES, ANONYMOUS_ID_REFRESH_MS, ANONYMOUS_ID_RETRY_MS, ANONYMOUS_ID_TIMEOUT_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const answer = (id: string) => `)]}'\n${JSON.stringify({ id, type: 1 })}`;
const texts = { a: answer('ID-A'), b: answer('ID-B'), x: `{"id":"no-prefix"}`, y: `)]}'{"id":"ID","type":2}` };
const consents = { t: true, f: false };
const none: AnonymousIdState = { status: 'none' };
const ready = (id: string, fetchedAtMs: number): AnonymousIdState => ({ status: 'ready', id, fetchedAtMs });
const missing = (error: string, retriesLeft: number): AnonymousIdState => ({ status: 'missing', error, retriesLeft });
const BOOM = new Error('boom');

/** A `fetchId` that hands out the given cold observables in turn (the last one again once they run out). */
const sequence = (...fetches: Observable<string>[]) => {
  let i = 0;
  return jest.fn(() => fetches[Math.min(i++, fetches.length - 1)]);
};

describe('anonymousId', () => {
  it('uses the production constants of spec §9', () => {
    expect(ANONYMOUS_ID_REFRESH_MS).toBe(1_800_000);
    expect(ANONYMOUS_ID_RETRY_MS).toBe(120_000);
    expect(ANONYMOUS_ID_MAX_RETRIES).toBe(2);
    expect(ANONYMOUS_ID_TIMEOUT_MS).toBe(5_000);
  });

  it('is none and fetches nothing without consent', () => {
    const fetchId = jest.fn();
    createTestScheduler().run(({ hot, expectObservable }) => {
      const consent = hot('   -f-f 1800000ms f', consents);
      expectObservable(anonymousId(consent, { fetchId })).toBe('n', { n: none });
      // Before any consent value: none as well.
      expectObservable(anonymousId(hot('-'), { fetchId })).toBe('n', { n: none });
    });
    expect(fetchId).not.toHaveBeenCalled();
  });

  it('fetches at once on consent and refreshes every 30 min (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const consent = hot('t', consents);
      const first = cold('-a|', texts);
      const refresh = cold('-b|', texts);
      const fetchId = sequence(first, refresh);
      // Fetch at 0, answer at 1 → ready(1). Refresh 1 800 000 ms later, at 1 800 001; its answer at 1 800 002.
      // 'n' takes frame 0, 'r' frame 1, so '1800000ms' brings us from 2 to 1 800 002; the next refresh is at 3 600 002.
      const unsubscribe = '^ 3600000ms !';
      expectObservable(anonymousId(consent, { fetchId }), unsubscribe).toBe('nr 1800000ms s', {
        n: none,
        r: ready('ID-A', 1),
        s: ready('ID-B', 1_800_002),
      });
      // Each attempt is unsubscribed as soon as its answer arrives (take(1)).
      expectSubscriptions(first.subscriptions).toBe('^!');
      expectSubscriptions(refresh.subscriptions).toBe('1800001ms ^!');
    });
  });

  it('is still ready 1 ms before the refresh (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const fetch = cold('(a|)', texts);
      // ready at 0; the refresh is due at 1 800 000; unsubscribing at 1 799 999 means no second fetch.
      expectObservable(anonymousId(hot('t', consents), { fetchId: () => fetch }), '^ 1799998ms !').toBe('(nr)', {
        n: none,
        r: ready('ID-A', 0),
      });
      expectSubscriptions(fetch.subscriptions).toBe('(^!)');
    });
  });

  it('retries a failure twice, 2 min apart, then stays missing with no more timers (production constants)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const fetch = cold('-#', undefined, BOOM);
      // Attempt 1: 0 → fails at 1. Attempt 2: 1 + 120 000 = 120 001 → fails at 120 002.
      // Attempt 3: 120 002 + 120 000 = 240 002 → fails at 240 003. Nothing after that, even an hour later.
      // Marbles: n@0, m@1, then 2 + 120 000 = 120 002, then 120 003 + 120 000 = 240 003.
      const expected = 'nm 120000ms l 120000ms z';
      expectObservable(anonymousId(hot('t', consents), { fetchId: () => fetch }), '^ 3600000ms !').toBe(expected, {
        n: none,
        m: missing('boom', 2),
        l: missing('boom', 1),
        z: missing('boom', 0),
      });
      expectSubscriptions(fetch.subscriptions).toBe(['^!', '120001ms ^!', '240002ms ^!']);
    });
  });

  it('times out an attempt after exactly 5 s and counts it as a failure (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const silent = cold<string>('-');
      const late = cold('5001ms a', texts);
      const fetchId = sequence(silent, late);
      // Attempt 1 subscribed at 0 and dropped at 5 000 (n@0, then 1 + 4 999 = 5 000).
      // Attempt 2 at 5 000 + 120 000 = 125 000; its answer would come at 130 001, the timeout at 130 000 wins.
      const expected = 'n 4999ms m 124999ms l';
      expectObservable(anonymousId(hot('t', consents), { fetchId }), '^ 130001ms !').toBe(expected, {
        n: none,
        m: missing('Request timed out', 2),
        l: missing('Request timed out', 1),
      });
      expectSubscriptions(silent.subscriptions).toBe('^ 4999ms !');
      expectSubscriptions(late.subscriptions).toBe('125000ms ^ 4999ms !');
    });
  });

  it('takes an answer 1 ms before the timeout (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const fetch = cold('4999ms a', texts);
      expectObservable(anonymousId(hot('t', consents), { fetchId: () => fetch }), '^ 5000ms !').toBe('n 4998ms r', {
        n: none,
        r: ready('ID-A', 4_999),
      });
    });
  });

  it('counts a refused answer as missing with the spec §8 message, and an empty answer too', () => {
    createTestScheduler().run(({ hot, cold, time, expectObservable }) => {
      const fetchId = sequence(cold('-x|', texts), cold('-y|', texts), cold('-|'));
      const retryMs = time('---|');
      expectObservable(anonymousId(hot('t', consents), { fetchId, retryMs })).toBe('nm---l---z', {
        n: none,
        m: missing('Biscotti ID is missing from server', 2),
        l: missing('Biscotti ID is missing from server', 1),
        z: missing('Biscotti ID is missing from server', 0),
      });
    });
  });

  it('catches an error thrown by fetchId itself', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const fetchId = () => {
        throw new Error('no network');
      };
      expectObservable(anonymousId(hot('t', consents), { fetchId, maxRetries: 0 })).toBe('(nm)', {
        n: none,
        m: missing('no network', 0),
      });
    });
  });

  it('runs the picture of the doc comment: three failures, withdrawal, a new grant', () => {
    createTestScheduler().run(({ hot, cold, time, expectObservable }) => {
      const fail = cold('-#', undefined, BOOM);
      const ok = cold('-a|', texts);
      const fetchId = sequence(fail, fail, fail, ok);
      const retryMs = time('  ---|');
      const consent = hot('   t------------f---t-', consents);
      // fetches:              -x  -x  -x       -a
      // The picture's three m's, told apart by retriesLeft: m 2, l 1, z 0.
      const expected = '      nm---l---z---n----r';
      expectObservable(anonymousId(consent, { fetchId, retryMs }), '^ 100ms !').toBe(expected, {
        n: none,
        m: missing('boom', 2),
        l: missing('boom', 1),
        z: missing('boom', 0),
        r: ready('ID-A', 18),
      });
    });
  });

  it('restores the retry budget after a success', () => {
    let fetchId = sequence();
    createTestScheduler().run(({ hot, cold, time, expectObservable }) => {
      const fail = cold('-#', undefined, BOOM);
      const ok = cold('-a|', texts);
      fetchId = sequence(fail, ok, fail, fail, fail);
      const retryMs = time('  --|');
      const refreshMs = time('----|');
      // fail@1 → retry at 3, ready@4 → refresh at 8, fail@9 → retry 11, fail@12 → retry 14, fail@15 → stop.
      const expected = '      nm--r----m--l--z';
      expectObservable(anonymousId(hot('t', consents), { fetchId, retryMs, refreshMs }), '^ 100ms !').toBe(expected, {
        n: none,
        m: missing('boom', 2),
        r: ready('ID-A', 4),
        l: missing('boom', 1),
        z: missing('boom', 0),
      });
    });
    expect(fetchId).toHaveBeenCalledTimes(5);
  });

  it('tears down the retry timer when consent is withdrawn mid-wait (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const fetch = cold('-#', undefined, BOOM);
      // Granted at 0, failed at 1; withdrawn at 1 + 60 000 = 60 001, half-way to the retry due at 120 001.
      const consent = hot('t 60000ms f', consents);
      const expected = '   nm 59999ms n';
      expectObservable(anonymousId(consent, { fetchId: () => fetch }), '^ 3600000ms !').toBe(expected, {
        n: none,
        m: missing('boom', 2),
      });
      // The only attempt ever made: no retry at 120 001.
      expectSubscriptions(fetch.subscriptions).toBe('^!');
    });
  });

  it('tears down the refresh timer when consent is withdrawn after a success (production constant)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const fetch = cold('-a|', texts);
      // ready at 1; withdrawn at 1 799 999 + 1 = 1 800 000, one frame before the refresh due at 1 800 001.
      const consent = hot('t 1799999ms f', consents);
      expectObservable(anonymousId(consent, { fetchId: () => fetch }), '^ 7200000ms !').toBe('nr 1799998ms n', {
        n: none,
        r: ready('ID-A', 1),
      });
      expectSubscriptions(fetch.subscriptions).toBe('^!');
    });
  });

  it('unsubscribes the fetch in flight on withdrawal and fetches afresh on a new grant', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const slow = cold('-----a|', texts);
      const quick = cold('-b|', texts);
      const fetchId = sequence(slow, quick);
      const consent = hot('t--f--t', consents);
      // The first fetch is dropped at 3 (no second 'none': it is still none); the grant at 6 fetches again.
      expectObservable(anonymousId(consent, { fetchId }), '^ 100ms !').toBe('n------r', {
        n: none,
        r: ready('ID-B', 7),
      });
      expectSubscriptions(slow.subscriptions).toBe('^--!');
      expectSubscriptions(quick.subscriptions).toBe('------^!');
    });
  });

  it('ignores repeated consent values', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const fetch = cold('--a|', texts);
      const consent = hot('ttt-t-fff', consents);
      expectObservable(anonymousId(consent, { fetchId: () => fetch }), '^ 100ms !').toBe('n-r---n', {
        n: none,
        r: ready('ID-A', 2),
      });
      expectSubscriptions(fetch.subscriptions).toBe('^-!');
    });
  });
});
