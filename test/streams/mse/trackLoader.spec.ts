import { BehaviorSubject, map, NEVER, type Observable, of, Subject } from 'rxjs';
import type { AdaptiveFormat } from '../../../streams/config/playerConfig';
import { type FetchEvent, type TrackEvent, trackLoader, type TrackPorts } from '../../../streams/mse/trackLoader';
import { createTestScheduler } from '../../helpers/testScheduler';

const format = (name: string, segments = 10): AdaptiveFormat => ({
  kind: 'video',
  quality: name,
  width: 640,
  height: 360,
  bitrate: 500_000,
  mimeType: 'video/mp4; codecs="avc1.4d401e"',
  initUrl: `/v/${name}/init.m4s`,
  segmentUrl: `/v/${name}/seg-$Number%03d$.m4s`,
  startNumber: 1,
  segmentSeconds: 2,
  segmentBytes: Array.from({ length: segments }, () => 1000),
});

const done = (bytes = 1000): FetchEvent => ({ type: 'done', data: new ArrayBuffer(bytes), requestMs: 0, firstByteMs: 1, endMs: 2 });

/** A track whose buffer holds exactly the appended segments, and whose network answers each URL at once. */
function fakeTrack(answer: (url: string) => Observable<FetchEvent> = () => of(done())) {
  const requests: string[] = [];
  const appended: number[] = [];
  let time = 0;
  let bufferedTo = 0;
  const ports: TrackPorts = {
    currentTime: () => time,
    bufferedEnd: (t) => (t <= bufferedTo ? bufferedTo : t),
    fetch: (url) => {
      requests.push(url);
      return answer(url);
    },
    append: (data) => {
      appended.push(data.byteLength);
      // The segment appended is the one requested last: segment n (1-based) ends at 2n s.
      const m = /seg-(\d+)/.exec(requests[requests.length - 1] ?? '');
      if (m) bufferedTo = Number(m[1]) * 2;
      return of(null);
    },
  };
  return {
    ports,
    requests,
    appended,
    seek: (t: number, buffered = t) => {
      time = t;
      bufferedTo = buffered;
    },
    play: (t: number) => {
      time = t;
    },
  };
}

const kinds = (events: TrackEvent[]) => events.map((e) => ('index' in e ? `${e.type}:${e.index}` : e.type));

describe('trackLoader', () => {
  it('appends the init segment, then fills the buffer up to the goal, then waits for the playhead', () => {
    const track = fakeTrack();
    const wake$ = new Subject<void>();
    const events: TrackEvent[] = [];
    const a = format('a');
    trackLoader({ ports: track.ports, formatFor: () => a, wake$, restart$: NEVER, online$: of(true), goalSeconds: 6 }).subscribe((e) => events.push(e));
    expect(track.requests).toEqual(['/v/a/init.m4s', '/v/a/seg-001.m4s', '/v/a/seg-002.m4s', '/v/a/seg-003.m4s']);
    expect(kinds(events)).toEqual(['init', 'segment:0', 'segment:1', 'segment:2']);
    track.play(1.5);
    wake$.next();
    expect(track.requests.slice(4)).toEqual(['/v/a/seg-004.m4s']);
  });

  it('appends the new rendition’s init segment before its first segment when the decision changes', () => {
    const track = fakeTrack();
    const a = format('a');
    const b = format('b');
    const events: TrackEvent[] = [];
    trackLoader({ ports: track.ports, formatFor: (i) => (i < 2 ? a : b), wake$: NEVER, restart$: NEVER, online$: of(true), goalSeconds: 8 }).subscribe((e) =>
      events.push(e),
    );
    expect(track.requests).toEqual(['/v/a/init.m4s', '/v/a/seg-001.m4s', '/v/a/seg-002.m4s', '/v/b/init.m4s', '/v/b/seg-003.m4s', '/v/b/seg-004.m4s']);
    expect(kinds(events)).toEqual(['init', 'segment:0', 'segment:1', 'init', 'segment:2', 'segment:3']);
  });

  it('says end once the last segment is in, and asks for nothing more', () => {
    const track = fakeTrack();
    const wake$ = new Subject<void>();
    const events: TrackEvent[] = [];
    const short = format('a', 2);
    trackLoader({ ports: track.ports, formatFor: () => short, wake$, restart$: NEVER, online$: of(true), goalSeconds: 30 }).subscribe((e) => events.push(e));
    wake$.next();
    expect(kinds(events)).toEqual(['init', 'segment:0', 'segment:1', 'end']);
    expect(track.requests).toHaveLength(3);
  });

  it('retries a failed request after 500 ms, 1 s, 2 s … and only while the network is up', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      let attempts = 0;
      const track = fakeTrack((url) => {
        if (url.includes('init')) return of(done());
        attempts += 1;
        return attempts <= 3 ? cold<FetchEvent>('#', {}, new Error('offline')) : cold<FetchEvent>('(d|)', { d: done() });
      });
      // The network is down from 0 and back at 2000 ms (the network-status stream replays its latest value).
      const online$ = new BehaviorSubject(false);
      cold('2000ms x').subscribe(() => online$.next(true));
      const a = format('a', 1);
      const events$ = trackLoader({ ports: track.ports, formatFor: () => a, wake$: NEVER, restart$: NEVER, online$, goalSeconds: 30 });
      // Attempt 1 fails at 0 and waits for the network (2000), then 500 ms; attempt 2 fails at 2500 and is retried 1 s
      // later; attempt 3 fails at 3500 and is retried 2 s later: at 5500 the segment is in, and it was the last.
      expectObservable(events$.pipe(map((e) => ('attempt' in e ? `r${e.attempt}` : e.type)))).toBe('(ab) 2496ms c 999ms d 1999ms (ef)', {
        a: 'init',
        b: 'r1',
        c: 'r2',
        d: 'r3',
        e: 'segment',
        f: 'end',
      });
    });
  });

  it('drops what is in flight on a seek and goes on from the new position', () => {
    const inFlight = new Subject<FetchEvent>();
    const track = fakeTrack((url) => (url.includes('seg-002') ? inFlight : of(done())));
    const restart$ = new Subject<void>();
    const a = format('a');
    const events: TrackEvent[] = [];
    trackLoader({ ports: track.ports, formatFor: () => a, wake$: NEVER, restart$, online$: of(true), goalSeconds: 4 }).subscribe((e) => events.push(e));
    expect(inFlight.observed).toBe(true);
    track.seek(12.5);
    restart$.next();
    expect(inFlight.observed).toBe(false);
    expect(track.requests.slice(3)).toEqual(['/v/a/seg-007.m4s', '/v/a/seg-008.m4s', '/v/a/seg-009.m4s']);
  });

  it('fetches again over the buffer from a replacement’s time, in the rendition decided now, up to the goal', () => {
    const track = fakeTrack();
    const replace$ = new Subject<number>();
    const wake$ = new Subject<void>();
    const a = format('a');
    const b = format('b');
    let decided = a;
    const events: TrackEvent[] = [];
    const options = { ports: track.ports, formatFor: () => decided, wake$, restart$: NEVER, replace$, online$: of(true), goalSeconds: 10 };
    trackLoader(options).subscribe((e) => events.push(e));
    expect(track.requests.slice(1)).toEqual(['/v/a/seg-001.m4s', '/v/a/seg-002.m4s', '/v/a/seg-003.m4s', '/v/a/seg-004.m4s', '/v/a/seg-005.m4s']);
    track.play(1);
    decided = b;
    // Nothing to replace beyond what is buffered, nor behind the playhead.
    replace$.next(10);
    replace$.next(0);
    expect(track.requests).toHaveLength(6);
    // From 4 s: segments 2 … 5 again (5 starts 9 s ahead of the playhead, 6 would start 11 s ahead).
    replace$.next(4);
    expect(track.requests.slice(6)).toEqual(['/v/b/init.m4s', '/v/b/seg-003.m4s', '/v/b/seg-004.m4s', '/v/b/seg-005.m4s', '/v/b/seg-006.m4s']);
    expect(kinds(events).slice(-5)).toEqual(['init', 'segment:2', 'segment:3', 'segment:4', 'segment:5']);
    // Then on as before, one segment as the playhead moves.
    track.play(3);
    wake$.next();
    expect(track.requests.slice(11)).toEqual(['/v/b/seg-007.m4s']);
  });

  it('drops the request in flight when a replacement goes back', () => {
    const pending: Subject<FetchEvent>[] = [];
    const track = fakeTrack((url) => (url.includes('seg-004') ? (pending[pending.length] = new Subject<FetchEvent>()) : of(done())));
    const replace$ = new Subject<number>();
    const a = format('a');
    trackLoader({ ports: track.ports, formatFor: () => a, wake$: NEVER, restart$: NEVER, replace$, online$: of(true), goalSeconds: 10 }).subscribe();
    expect(pending.map((p) => p.observed)).toEqual([true]);
    replace$.next(2);
    expect(pending.map((p) => p.observed)).toEqual([false, true]);
    expect(track.requests.slice(1)).toEqual([
      '/v/a/seg-001.m4s',
      '/v/a/seg-002.m4s',
      '/v/a/seg-003.m4s',
      '/v/a/seg-004.m4s',
      '/v/a/seg-002.m4s',
      '/v/a/seg-003.m4s',
      '/v/a/seg-004.m4s',
    ]);
  });

  it('abandons a request the rule says will arrive too late, reports what it got, and plans again', () => {
    const progress: FetchEvent = { type: 'progress', loaded: 300, requestMs: 0, firstByteMs: 50, atMs: 900 };
    const slow = new Subject<FetchEvent>();
    const track = fakeTrack((url) => (url.startsWith('/v/high/seg') ? slow : of(done())));
    const high = format('high');
    const low = format('low');
    const dropped = new BehaviorSubject(false);
    const events: TrackEvent[] = [];
    trackLoader({
      ports: track.ports,
      formatFor: () => (dropped.value ? low : high),
      wake$: NEVER,
      restart$: NEVER,
      online$: of(true),
      goalSeconds: 2,
      abandon: (p) => {
        if (p.loaded < 300) return false;
        dropped.next(true);
        return true;
      },
    }).subscribe((e) => events.push(e));
    slow.next({ ...progress, loaded: 100 });
    slow.next(progress);
    expect(slow.observed).toBe(false);
    expect(events.map((e) => e.type)).toEqual(['init', 'progress', 'abandoned', 'init', 'segment']);
    const abandoned = events.find((e) => e.type === 'abandoned');
    expect(abandoned).toMatchObject({ index: 0, transfer: { bytes: 300, firstByteMs: 50, endMs: 900 } });
    expect(track.requests).toEqual(['/v/high/init.m4s', '/v/high/seg-001.m4s', '/v/low/init.m4s', '/v/low/seg-001.m4s']);
  });
});
