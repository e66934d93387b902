import { Observable, throwError } from 'rxjs';
import { networkStatus } from '../../../streams/network/networkStatus';
import type { BrowserNetworkEvent } from '../../../streams/sources/networkEvents';
import { createTestScheduler } from '../../helpers/testScheduler';

const status = { o: 'online', f: 'offline' } as const;
const browser = { n: 'online', f: 'offline' } as const satisfies Record<string, BrowserNetworkEvent>;
const verdict = { t: true, f: false };

describe('networkStatus', () => {
  it('backs off 1 s, 2 s, 4 s … capped at 60 s while the probe fails (default options)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const events = hot<BrowserNetworkEvent>('-');
      const failing = cold('(f|)', verdict);
      const status$ = networkStatus(events, { probe: () => failing });
      // online from the browser, then the first probe (at 0) fails at once.
      expectObservable(status$, '^ 200000ms !').toBe('(of)', status);
      // probes at 0, then +1000, +2000, +4000, +8000, +16000, +32000 (= 63000), then +60000 each (capped).
      expectSubscriptions(failing.subscriptions).toBe([
        '(^!)',
        '1000ms (^!)',
        '3000ms (^!)',
        '7000ms (^!)',
        '15000ms (^!)',
        '31000ms (^!)',
        '63000ms (^!)',
        '123000ms (^!)',
        '183000ms (^!)',
      ]);
    });
  });

  it('counts a probe that has not answered after 5 s as failed (default timeout)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const events = hot<BrowserNetworkEvent>('-');
      const hanging = cold<boolean>('-');
      // the probe subscribed at 0 times out at 5000: offline, then the next probe 1000 ms later, at 6000.
      expectObservable(networkStatus(events, { probe: () => hanging }), '^ 6000ms !').toBe('o 4999ms f', status);
      expectSubscriptions(hanging.subscriptions).toBe(['^ 4999ms !', '6000ms ^!']);
    });
  });

  it('reads a captive network as offline and comes back online when a later probe succeeds', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const events = hot<BrowserNetworkEvent>('-');
      const answers = ['-(f|)', '-(f|)', '-(f|)', '-(t|)'];
      const probe = () => cold(answers.shift() ?? '-', verdict);
      // probes answer 1 frame after start: 0→1 f; wait 3 → 4→5 f; wait 6 → 11→12 f; wait 9 (cap) → 21→22 t.
      const expected = 'of--------------------o';
      expectObservable(networkStatus(events, { probe, backoffBaseMs: 3, backoffMaxMs: 9 }), '^ 40ms !').toBe(expected, status);
    });
  });

  it('behaves as the picture in its doc comment', () => {
    const answers = ['(f|)', '(f|)', '(f|)', '(t|)', '(f|)', '(t|)'];
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const events = hot<BrowserNetworkEvent>('-----------------------f------n-----', browser);
      const probe = () => cold(answers.shift() ?? '-', verdict);
      // probes at 0, 3, 9 fail and 18 succeeds; offline at 23; online at 30 probes (fails), 33 succeeds.
      const expected = '(of)--------------o----f---------o--';
      expectObservable(networkStatus(events, { probe, backoffBaseMs: 3, backoffMaxMs: 9 }), '^ 35ms !').toBe(expected, status);
    });
    expect(answers).toEqual([]); // exactly six probes were made
  });

  it('does not probe after a success until something asks for it', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const events = hot<BrowserNetworkEvent>('-');
      const ok = cold('-(t|)', verdict);
      expectObservable(networkStatus(events, { probe: () => ok, backoffBaseMs: 3 }), '^ 50ms !').toBe('o', status);
      expectSubscriptions(ok.subscriptions).toBe('^!');
    });
  });

  it('goes offline at once on an offline event, cancelling the probe in flight, and does not probe while offline', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const events = hot<BrowserNetworkEvent>('--f------', browser);
      const slow = cold('-----(t|)', verdict);
      expectObservable(networkStatus(events, { probe: () => slow }), '^ 20ms !').toBe('o-f', status);
      expectSubscriptions(slow.subscriptions).toBe('^-!');
    });
  });

  it('on an online event stays offline until the probe confirms, and restarts the back-off from its base', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const events = hot<BrowserNetworkEvent>('-------------n----------', browser);
      const answers = ['(f|)', '(f|)', '(f|)', '--(f|)', '--(t|)'];
      const probe = () => cold(answers.shift() ?? '-', verdict);
      // fails at 0, 3 (+3), 9 (+6); the next would be at 9 + 12 = 21, but the online event at 13 probes at once:
      // that probe fails at 15, and the next comes after the base 3 again (18), succeeding at 20.
      const expected = '(of)----------------o';
      expectObservable(networkStatus(events, { probe, backoffBaseMs: 3, backoffMaxMs: 100 }), '^ 30ms !').toBe(expected, status);
    });
  });

  it('starts offline without probing when the browser says so, and probes on the online event', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const events = hot<BrowserNetworkEvent>('----n---', browser);
      const ok = cold('-(t|)', verdict);
      const status$ = networkStatus(events, { probe: () => ok, readOnLine: () => false });
      expectObservable(status$, '^ 10ms !').toBe('f----o', status);
      expectSubscriptions(ok.subscriptions).toBe('----^!');
    });
  });

  it('probes on recheck$ while online, ignoring rechecks during a running check', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const events = hot<BrowserNetworkEvent>('-');
      const recheck = hot('   -----r-r----r-');
      const answers = ['(t|)', '---(f|)', '(t|)'];
      const probe = () => cold(answers.shift() ?? '-', verdict);
      // start probe ok; recheck at 5 fails at 8 (the recheck at 7 is ignored); the back-off probe at 9 succeeds;
      // the recheck at 12 would probe again but its answer '-' never comes within the window.
      const expected = '   o-------fo---';
      expectObservable(networkStatus(events, { probe, recheck$: recheck, backoffBaseMs: 1 }), '^ 14ms !').toBe(expected, status);
      expectSubscriptions(recheck.subscriptions).toBe('^ 14ms !');
    });
  });

  it('treats a probe that errors, throws, completes empty or answers non-true as failed', () => {
    const probes: Array<() => Observable<boolean>> = [
      () => throwError(() => new Error('network')),
      () => {
        throw new Error('thrown by the probe factory');
      },
      () => new Observable<boolean>((s) => s.complete()),
      () => new Observable<boolean>((s) => s.next('yes' as unknown as boolean)),
    ];
    for (const probe of probes) {
      createTestScheduler().run(({ hot, expectObservable }) => {
        const events = hot<BrowserNetworkEvent>('-');
        expectObservable(networkStatus(events, { probe }), '^ 500ms !').toBe('(of)', status);
      });
    }
  });

  it('reads a throwing readOnLine as online and never fails', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      const events = hot<BrowserNetworkEvent>('-');
      const readOnLine = () => {
        throw new Error('no navigator');
      };
      expectObservable(networkStatus(events, { probe: () => cold('(t|)', verdict), readOnLine }), '^ 5ms !').toBe('o', status);
    });
  });

  it('tears down the events, the recheck trigger, the probe and the back-off timer on unsubscribe', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const events = hot<BrowserNetworkEvent>('--------');
      const recheck = hot('-------');
      const failing = cold('-(f|)', verdict);
      const status$ = networkStatus(events, { probe: () => failing, recheck$: recheck, backoffBaseMs: 3 });
      // probe 0→1 fails; the re-probe would start at 4 but we leave at 3.
      expectObservable(status$, '^--!').toBe('of-', status);
      expectSubscriptions(events.subscriptions).toBe('^--!');
      expectSubscriptions(recheck.subscriptions).toBe('^--!');
      expectSubscriptions(failing.subscriptions).toBe('^!');
    });
  });
});
