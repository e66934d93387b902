import { asyncScheduler, map, mergeMap, type Observable, type SchedulerLike } from 'rxjs';
import { coalesceDeliveries } from '../../../streams/host/coalesceDeliveries';
import type { HostAction } from '../../../streams/host/hostTypes';
import { createTestScheduler } from '../../helpers/testScheduler';
import { HOST, hostWindow } from './fixtures';

const post = (event: string, info: unknown, coalesce: boolean): HostAction => ({
  type: 'post',
  to: 'host',
  window: hostWindow,
  targetOrigin: HOST,
  message: { event, info, channel: 'widget', id: 1 },
  coalesce,
});
/** A volume change as the protocol emits it: its infoDelivery, then its onVolumeChange, in the same frame. */
const vol = (n: number) => [post('infoDelivery', { volume: n, muted: false }, true), post('onVolumeChange', { volume: n, muted: false }, true)];
const time = (n: number) => [post('infoDelivery', { currentTime: n }, true)];
/** A state change: never coalesced. */
const state = (s: number) => [post('infoDelivery', { playerState: s }, false), post('onStateChange', s, false)];
const flat = (src: Observable<HostAction[]>) => src.pipe(mergeMap((xs) => xs));
const show = (a: HostAction) => (a.type === 'post' ? `${a.message.event}:${JSON.stringify(a.message.info)}` : a.command.type);
const V = (n: number) => `infoDelivery:{"volume":${n},"muted":false}`;
const E = (n: number) => `onVolumeChange:{"volume":${n},"muted":false}`;

describe('coalesceDeliveries', () => {
  it('merges a slider drag inside the 100 ms window and sends the latest at its end (production default)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      // Volume changes at frames 0, 10, 20, 30; completion at 31 + 300 = 331.
      const source = hot('a 9ms b 9ms c 9ms d 300ms |', { a: vol(10), b: vol(20), c: vol(30), d: vol(40) });
      // 0: the first passes at once and opens the window; 10–30 merge and go out at 100 (the "(xy)" group spans
      // 4 frames: 4 + 96 = 100); the next window closes empty at 200; 104 + 227 = 331 completes.
      expectObservable(flat(source).pipe(coalesceDeliveries(), map(show))).toBe('(xy) 96ms (zw) 227ms |', {
        x: V(10),
        y: E(10),
        z: V(40),
        w: E(40),
      });
    });
  });

  it('a state change flushes what is pending first and passes at once; spaced updates pass untouched', () => {
    createTestScheduler().run(({ cold, time: t, expectObservable, expectSubscriptions }) => {
      const ms = t('-----|'); // a 5-frame window
      const source = cold('ab-cs----f--------g|', { a: time(1), b: time(2), c: time(3), s: state(2), f: time(4), g: time(5) });
      // a (0) opens the window 0–5; b and c merge; s at 4 flushes c's merge, then the state and its event, at 4.
      // f at 9 and g at 18 find no open window: they pass at once.
      expectObservable(flat(source).pipe(coalesceDeliveries({ coalesceMs: ms }), map(show))).toBe('a---(cde)f--------g|', {
        a: 'infoDelivery:{"currentTime":1}',
        c: 'infoDelivery:{"currentTime":3}',
        d: 'infoDelivery:{"playerState":2}',
        e: 'onStateChange:2',
        f: 'infoDelivery:{"currentTime":4}',
        g: 'infoDelivery:{"currentTime":5}',
      });
      expectSubscriptions(source.subscriptions).toBe('^------------------!');
    });
  });

  it('merges infoDeliveries key by key and keeps only the latest value of each event', () => {
    createTestScheduler().run(({ cold, time: t, expectObservable }) => {
      const ms = t('----|');
      const source = cold('abcd------|', { a: time(1), b: vol(5), c: time(2), d: vol(6) });
      expectObservable(flat(source).pipe(coalesceDeliveries({ coalesceMs: ms }), map(show))).toBe('a---(me)--|', {
        a: 'infoDelivery:{"currentTime":1}',
        m: 'infoDelivery:{"volume":6,"muted":false,"currentTime":2}',
        e: E(6),
      });
    });
  });

  it('flushes what is pending on completion; on unsubscribe its timer goes too', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('ab|', { a: time(1), b: time(2) });
      expectObservable(flat(source).pipe(coalesceDeliveries(), map(show))).toBe('a-(b|)', {
        a: 'infoDelivery:{"currentTime":1}',
        b: 'infoDelivery:{"currentTime":2}',
      });
      const other = hot('ab-----', { a: time(1), b: time(2) });
      // Unsubscribed at frame 3: the pending "b" goes with its window; nothing fires at 100 ms.
      expectObservable(flat(other).pipe(coalesceDeliveries(), map(show)), '^--!').toBe('a--', { a: 'infoDelivery:{"currentTime":1}' });
      expectSubscriptions(other.subscriptions).toBe('^--!');
    });
  });

  it('a host command closes the open window and nothing is merged for coalesceMs after it: its answer goes out at once, even after a tick', () => {
    createTestScheduler().run(({ cold, time: t, expectObservable }) => {
      const ms = t('-----|'); // a 5-frame window
      const command: HostAction = { type: 'command', command: { type: 'setVolume', volume: 30 } as never };
      // A tick at 0 opens the window 0–5; the command at 1 passes and closes it; for 5 frames after it (1–6) nothing
      // is merged: a tick at 2 and the volume answer at 3, after that tick, go out at once; the tick at 9 opens a
      // window again.
      const source = cold('act(v)---u-|', { a: time(1), c: [command], t: time(2), v: vol(30), u: time(3) });
      expectObservable(flat(source).pipe(coalesceDeliveries({ coalesceMs: ms }), map(show))).toBe('abz(xy)--w-|', {
        a: 'infoDelivery:{"currentTime":1}',
        b: 'setVolume',
        z: 'infoDelivery:{"currentTime":2}',
        x: V(30),
        y: E(30),
        w: 'infoDelivery:{"currentTime":3}',
      });
    });
  });

  it('without the command, the same answer would wait for the window a tick opened (what a command now prevents)', () => {
    createTestScheduler().run(({ cold, time: t, expectObservable }) => {
      const ms = t('-----|');
      const source = cold('a-(v)-----|', { a: time(1), v: vol(30) });
      expectObservable(flat(source).pipe(coalesceDeliveries({ coalesceMs: ms }), map(show))).toBe('a----(mx)-|', {
        a: 'infoDelivery:{"currentTime":1}',
        m: V(30),
        x: E(30),
      });
    });
  });

  it('arms no timer for a steady stream of ticks that never find anything waiting', () => {
    createTestScheduler().run(({ cold, time: t, expectObservable, flush }) => {
      const ms = t('-----|'); // a 5-frame window
      // Ticks 8 frames apart: each passes at once and opens a window that closes with nothing in it.
      const source = cold('a-------b-------c|', { a: time(1), b: time(2), c: time(3) });
      let scheduled = 0;
      // The virtual-time scheduler of this run, counting what the operator asks it to schedule.
      const schedulerLike: SchedulerLike = {
        now: () => asyncScheduler.now(),
        schedule: (work, delay, state) => {
          scheduled++;
          return asyncScheduler.schedule(work as never, delay, state);
        },
      };
      expectObservable(flat(source).pipe(coalesceDeliveries({ coalesceMs: ms, scheduler: schedulerLike }), map(show))).toBe('a-------b-------c|', {
        a: 'infoDelivery:{"currentTime":1}',
        b: 'infoDelivery:{"currentTime":2}',
        c: 'infoDelivery:{"currentTime":3}',
      });
      flush();
      expect(scheduled).toBe(0);
    });
  });
});
