import { BehaviorSubject, map, type Observable, Subject } from 'rxjs';
import { createRecorder } from '../../../streams/shared/recorder';
import { createTestScheduler } from '../../helpers/testScheduler';

describe('createRecorder (a consumer that arrives late loses nothing)', () => {
  it('replays the recorded emissions of all streams in the order they happened, at their times, then goes live', () => {
    const scheduler = createTestScheduler();
    const log: string[] = [];
    scheduler.run(({ hot }) => {
      const recorder = createRecorder({ now: () => scheduler.now(), base: scheduler });
      const a = recorder.record(hot<string>('--1----3------5--'));
      const b = recorder.record(hot<string>('----2-----4------'));
      // Each delivery says when it happened: the value and the recorder's time at delivery.
      const stamped = (s: Observable<string>) => s.pipe(map((v) => `${v}@${recorder.now()}`));
      scheduler.schedule(() => {
        stamped(a).subscribe((v) => log.push(`a${v}`));
        stamped(b).subscribe((v) => log.push(`b${v}`));
        recorder.release();
      }, 11);
    });
    expect(log).toEqual(['a1@2', 'b2@4', 'a3@7', 'b4@10', 'a5@14']);
  });

  it('tells the recorded time during the replay, its start before the release, the clock after; so does its scheduler', () => {
    let clock = 50;
    const recorder = createRecorder({ now: () => clock });
    clock = 100;
    const source = new Subject<string>();
    const times: number[] = [];
    recorder.record(source).subscribe(() => times.push(recorder.scheduler.now()));
    source.next('a');
    clock = 250;
    // A consumer's own opening, before the release, dates from when the recorder started (as if it had started then).
    expect(recorder.now()).toBe(50);
    recorder.release();
    expect(times).toEqual([100]);
    expect(recorder.now()).toBe(250);
    expect(recorder.scheduler.now()).toBe(250);
  });

  it('a subscriber after the release gets the live values only; the end of a stream is recorded too', () => {
    const recorder = createRecorder({ now: () => 0 });
    const source = new Subject<number>();
    const recorded = recorder.record(source);
    const early: unknown[] = [];
    recorded.subscribe({ next: (v) => early.push(v), complete: () => early.push('end') });
    source.next(1);
    source.next(2);
    source.complete();
    expect(early).toEqual([]);
    recorder.release();
    expect(early).toEqual([1, 2, 'end']);
    const other = new Subject<number>();
    const live = recorder.record(other);
    const late: number[] = [];
    live.subscribe((v) => late.push(v));
    other.next(3);
    expect(late).toEqual([3]);
  });

  it('what a replayed delivery causes is recorded after it and delivered in the same replay, in order', () => {
    const recorder = createRecorder({ now: () => 0 });
    const first = new Subject<string>();
    const second = new Subject<string>();
    const a = recorder.record(first);
    const b = recorder.record(second);
    const log: string[] = [];
    a.subscribe((v) => {
      log.push(v);
      if (v === 'x') second.next('caused by x');
    });
    b.subscribe((v) => log.push(v));
    first.next('x');
    first.next('y');
    recorder.release();
    expect(log).toEqual(['x', 'y', 'caused by x']);
  });

  it('a recorded state gives a subscriber made during the replay the value of that moment, and one made later the current one', () => {
    const recorder = createRecorder({ now: () => 0 });
    const state = new BehaviorSubject('loading');
    const events = new Subject<string>();
    const state$ = recorder.recordState(state);
    const events$ = recorder.record(events);
    state.next('ready');
    events.next('load');
    state.next('playing');
    const seen: string[] = [];
    // At the replayed 'load', the state was 'ready': a subscription made then sees 'ready', then what followed.
    events$.subscribe(() => state$.subscribe((s) => seen.push(s)));
    recorder.release();
    expect(seen).toEqual(['ready', 'playing']);
    const late: string[] = [];
    state$.subscribe((s) => late.push(s));
    expect(late).toEqual(['playing']);
  });

  it('keeps at most maxEntries and counts what it dropped', () => {
    const recorder = createRecorder({ now: () => 0, maxEntries: 2 });
    const source = new Subject<number>();
    const out: number[] = [];
    recorder.record(source).subscribe((v) => out.push(v));
    [1, 2, 3, 4].forEach((v) => source.next(v));
    expect(recorder.dropped).toBe(2);
    recorder.release();
    expect(out).toEqual([1, 2]);
  });
});
