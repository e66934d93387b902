import { of, throwError, type Observable } from 'rxjs';
import type { Beacon } from '../../../streams/tracking/playbackBeacons';
import { sendBeacons } from '../../../streams/tracking/sendBeacons';
import { PING_MAX_RESENDS, PING_RESEND_DELAY_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const beacon = (url: string): Beacon => ({ kind: 'watchtime', url, params: { cpn: 'c', seq: 1, cmt: 1, rt: 1 } });
const a = beacon('/api/stats/watchtime?docid=VFsunrise01&ei=E1&cpn=c&seq=1');
const b = beacon('/api/stats/watchtime?docid=VFsunrise01&ei=E1&cpn=c&seq=2');

/** A send that answers each URL's scripted statuses in turn (`'throw'`: the fetch itself failed); records every call. */
function scripted(answers: Record<string, (number | 'throw')[]>) {
  const calls: string[] = [];
  const send = (url: string): Observable<number> => {
    calls.push(url);
    const next = answers[url].shift();
    if (next === undefined) throw new Error(`no answer left for ${url}`);
    return next === 'throw' ? throwError(() => new TypeError('Failed to fetch')) : of(next);
  };
  return { send, calls };
}

describe('sendBeacons', () => {
  it('resends a ping that failed with a 5xx after the delay, never holds another ping back behind it, and never resends a 400', () => {
    const { send, calls } = scripted({ [a.url]: [503, 204], [b.url]: [400] });
    createTestScheduler().run(({ hot, time, expectObservable }) => {
      const resendDelayMs = time('---|');
      const beacons = hot('-ab', { a, b });
      // a fails @1, is resent @4 and taken; b is refused @2 at once.
      expectObservable(sendBeacons(beacons, { send, resendDelayMs })).toBe('--r-s', {
        r: { type: 'refused', beacon: b, status: 400 },
        s: { type: 'sent', beacon: a, status: 204, resends: 1 },
      });
    });
    // run() has flushed every frame: a, then b, then a's resend.
    expect(calls).toEqual([a.url, b.url, a.url]);
  });

  it('gives a ping up after two resends, 5 s then 10 s apart (production constants); a network failure and a 429 count as failures', () => {
    expect([PING_MAX_RESENDS, PING_RESEND_DELAY_MS]).toEqual([2, 5_000]);
    createTestScheduler().run(({ hot, expectObservable }) => {
      const beacons = hot('a', { a });
      const { send } = scripted({ [a.url]: ['throw', 429, 500] });
      // Tried @0, @5000, @15000: dropped with the last status.
      expectObservable(sendBeacons(beacons, { send })).toBe('15000ms d', { d: { type: 'dropped', beacon: a, status: 500 } });
    });
  });

  it('completes once the beacons completed and the last ping settled, its resend included', () => {
    createTestScheduler().run(({ cold, hot, time, expectObservable }) => {
      const resendDelayMs = time('--|');
      const answers: Record<string, Observable<number>[]> = { [a.url]: [cold('-(x|)', { x: 503 }), cold('-(x|)', { x: 204 })] };
      const send = (url: string) => answers[url].shift()!;
      // a is answered 503 @1, resent @3, answered 204 @4; the beacons completed @1: the result completes @4, not sooner.
      expectObservable(sendBeacons(hot('a|', { a }), { send, resendDelayMs })).toBe('----(s|)', {
        s: { type: 'sent', beacon: a, status: 204, resends: 1 },
      });
    });
  });

  it('stops every ping in flight and every resend waiting when unsubscribed', () => {
    const { send, calls } = scripted({ [a.url]: [503, 204] });
    createTestScheduler().run(({ cold, hot, time, expectObservable, expectSubscriptions }) => {
      const resendDelayMs = time('---|');
      const bAnswer = cold<number>('-'); // b's request never answers
      const slow = (url: string) => (url === b.url ? bAnswer : send(url));
      // a fails @0 and waits for its resend @3; b is in flight from @1; unsubscribed @2: b's request is torn down
      // then, and a is never sent again.
      expectObservable(sendBeacons(hot('ab', { a, b }), { send: slow, resendDelayMs }), '--!').toBe('');
      expectSubscriptions(bAnswer.subscriptions).toBe('-^!');
    });
    expect(calls).toEqual([a.url]);
  });
});
