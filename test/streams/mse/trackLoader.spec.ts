import { BehaviorSubject, map, NEVER, type Observable, of, Subject, throwError } from 'rxjs';
import type { AdaptiveFormat } from '../../../streams/config/playerConfig';
import { AppendFailure } from '../../../streams/mse/loaderRetry';
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
      if (m) bufferedTo = Math.max(bufferedTo, Number(m[1]) * 2);
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

  it('fails with an AppendFailure, without a retry, when the buffer refuses a segment (not media it decodes)', () => {
    const track = fakeTrack();
    const refused = new Error('The media could not be appended (decode error).');
    const ports: TrackPorts = {
      ...track.ports,
      append: (data) => (track.requests.at(-1)?.includes('seg-') ? throwError(() => refused) : track.ports.append(data)),
    };
    const a = format('a');
    const events: TrackEvent[] = [];
    let failure: unknown;
    trackLoader({ ports, formatFor: () => a, wake$: NEVER, restart$: NEVER, online$: of(true), goalSeconds: 6 }).subscribe({
      next: (e) => events.push(e),
      error: (e: unknown) => (failure = e),
    });
    expect(failure).toBeInstanceOf(AppendFailure);
    expect((failure as AppendFailure).message).toBe(refused.message);
    expect(track.requests).toEqual(['/v/a/init.m4s', '/v/a/seg-001.m4s']);
    expect(kinds(events)).toEqual(['init']);
  });

  it('tries an append again when the buffer was full (QuotaExceededError): the playhead frees room', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const track = fakeTrack();
      let refusals = 0;
      const full = Object.assign(new Error('The SourceBuffer is full.'), { name: 'QuotaExceededError' });
      const ports: TrackPorts = {
        ...track.ports,
        append: (data) => (track.requests.at(-1)?.includes('seg-') && refusals++ === 0 ? cold('#', {}, full) : track.ports.append(data)),
      };
      const a = format('a', 1);
      const events$ = trackLoader({ ports, formatFor: () => a, wake$: NEVER, restart$: NEVER, online$: of(true), goalSeconds: 30 });
      // Refused once at 0, fetched and appended again 500 ms later; it was the last segment.
      expectObservable(events$.pipe(map((e) => e.type[0]))).toBe('(ir) 496ms (se)', { i: 'i', r: 'r', s: 's', e: 'e' });
    });
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
    const [a, b] = [format('a'), format('b')];
    let current = a;
    trackLoader({ ports: track.ports, formatFor: () => current, wake$: NEVER, restart$: NEVER, replace$, online$: of(true), goalSeconds: 10 }).subscribe();
    expect(pending.map((p) => p.observed)).toEqual([true]);
    current = b;
    replace$.next(2);
    expect(pending.map((p) => p.observed)).toEqual([false, true]);
    expect(track.requests.slice(1)).toEqual([
      '/v/a/seg-001.m4s',
      '/v/a/seg-002.m4s',
      '/v/a/seg-003.m4s',
      '/v/a/seg-004.m4s',
      '/v/b/init.m4s',
      '/v/b/seg-002.m4s',
      '/v/b/seg-003.m4s',
      '/v/b/seg-004.m4s',
    ]);
  });

  it('passes over the segments already buffered in the rendition a replacement fetches', () => {
    const track = fakeTrack();
    const replace$ = new Subject<number>();
    const [a, b] = [format('a'), format('b')];
    // Segments 0 and 1 in a, 2 … 4 in b (a climb); then a replacement in b from 2.5 s fetches segment 1 again, passes
    // over 2 … 4, and goes on with 5 (it starts 9.5 s ahead of the playhead, within the goal).
    let formatFor = (i: number) => (i < 2 ? a : b);
    trackLoader({
      ports: track.ports,
      formatFor: (i) => formatFor(i),
      wake$: NEVER,
      restart$: NEVER,
      replace$,
      online$: of(true),
      goalSeconds: 10,
    }).subscribe();
    expect(track.requests.slice(-3)).toEqual(['/v/b/seg-003.m4s', '/v/b/seg-004.m4s', '/v/b/seg-005.m4s']);
    formatFor = () => b;
    track.play(0.5);
    replace$.next(2.5);
    expect(track.requests.slice(7)).toEqual(['/v/b/seg-002.m4s', '/v/b/seg-006.m4s']);
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

/**
 * A track whose `SourceBuffer` can reset a part-appended segment: it logs every buffer operation (`init`, `seg-N
 * <bytes>`, `reset`) in order; each segment's body comes through a subject the test drives, its appends finish when
 * the test says (`finishAppends`), or at once.
 */
function streamingTrack({ appendsWait = false } = {}) {
  const bodies = new Map<string, Subject<FetchEvent>>();
  const ops: string[] = [];
  const waitingAppends: Subject<null>[] = [];
  let requested = '';
  let bufferedTo = 0;
  const ports: TrackPorts = {
    currentTime: () => 0,
    bufferedEnd: (t) => (t <= bufferedTo ? bufferedTo : t),
    fetch: (url) => {
      requested = url;
      if (url.includes('init')) return of(done(10));
      const body = new Subject<FetchEvent>();
      bodies.set(url, body);
      return body;
    },
    append: (data) => {
      const m = /seg-(\d+)/.exec(requested);
      ops.push(m ? `seg-${m[1]} ${data.byteLength}` : 'init');
      // Segment n (1-based) spans 2n − 2 … 2n s: a part of it buffers its first half second, its end comes with its body's.
      if (m) bufferedTo = Math.max(bufferedTo, Number(m[1]) * 2 - 1.5);
      if (!appendsWait) return of(null);
      const finished = new Subject<null>();
      waitingAppends.push(finished);
      return finished;
    },
    reset: () => {
      ops.push('reset');
      return of(null);
    },
  };
  const chunk = (url: string, bytes: number, loaded: number) =>
    bodies.get(url)?.next({ type: 'progress', loaded, requestMs: 0, firstByteMs: 1, atMs: 2, chunk: new Uint8Array(bytes) });
  const finish = (url: string, bytes: number) => {
    const m = /seg-(\d+)/.exec(url);
    if (m) bufferedTo = Math.max(bufferedTo, Number(m[1]) * 2);
    bodies.get(url)?.next(done(bytes));
    bodies.get(url)?.complete();
  };
  const finishAppends = () => waitingAppends.splice(0).forEach((a) => (a.next(null), a.complete()));
  return { ports, ops, bodies, chunk, finish, finishAppends };
}

describe('trackLoader, appending as the body arrives', () => {
  it('appends a segment that starts where nothing is buffered chunk by chunk, and says it once all is appended', () => {
    const track = streamingTrack({ appendsWait: true });
    const events: TrackEvent[] = [];
    const a = format('a', 1);
    trackLoader({ ports: track.ports, formatFor: () => a, wake$: NEVER, restart$: NEVER, online$: of(true), goalSeconds: 2 }).subscribe((e) => events.push(e));
    track.finishAppends(); // the init segment
    track.chunk('/v/a/seg-001.m4s', 100, 100);
    expect(track.ops).toEqual(['init', 'seg-001 100']);
    // Two chunks arrive while the first append runs: they go in together, once it is done.
    track.chunk('/v/a/seg-001.m4s', 200, 300);
    track.chunk('/v/a/seg-001.m4s', 300, 600);
    expect(track.ops).toEqual(['init', 'seg-001 100']);
    track.finishAppends();
    expect(track.ops).toEqual(['init', 'seg-001 100', 'seg-001 500']);
    // The body is complete, but the segment is said only once its last bytes are appended.
    track.finish('/v/a/seg-001.m4s', 600);
    expect(kinds(events)).toEqual(['init', 'progress:0', 'progress:0', 'progress:0']);
    track.finishAppends();
    expect(kinds(events)).toEqual(['init', 'progress:0', 'progress:0', 'progress:0', 'segment:0', 'end']);
    expect(events.find((e) => e.type === 'segment')).toMatchObject({ transfer: { bytes: 600 } });
  });

  it('appends whole a segment fetched again over the buffer (a replacement), as its first frames would remove the old ones', () => {
    const track = streamingTrack();
    const replace$ = new Subject<number>();
    const [a, b] = [format('a', 2), format('b', 2)];
    let current = a;
    trackLoader({ ports: track.ports, formatFor: () => current, wake$: NEVER, restart$: NEVER, replace$, online$: of(true), goalSeconds: 4 }).subscribe();
    track.chunk('/v/a/seg-001.m4s', 100, 100);
    track.finish('/v/a/seg-001.m4s', 100);
    track.chunk('/v/a/seg-002.m4s', 100, 100);
    track.finish('/v/a/seg-002.m4s', 100);
    expect(track.ops).toEqual(['init', 'seg-001 100', 'seg-002 100']);
    current = b;
    replace$.next(2);
    track.chunk('/v/b/seg-002.m4s', 100, 100);
    track.chunk('/v/b/seg-002.m4s', 150, 250);
    expect(track.ops).toEqual(['init', 'seg-001 100', 'seg-002 100', 'init']);
    track.finish('/v/b/seg-002.m4s', 250);
    expect(track.ops.slice(4)).toEqual(['seg-002 250']);
  });

  it('forgets a part-appended segment the abandon rule drops, before the lower one goes in whole over it', () => {
    const track = streamingTrack();
    let abandoning = false;
    const high = format('high', 3);
    const low = format('low', 3);
    trackLoader({
      ports: track.ports,
      formatFor: () => (abandoning ? low : high),
      wake$: NEVER,
      restart$: NEVER,
      online$: of(true),
      goalSeconds: 2,
      abandon: (p) => abandoning && p.format === high,
    }).subscribe();
    track.chunk('/v/high/seg-001.m4s', 100, 100);
    abandoning = true;
    track.chunk('/v/high/seg-001.m4s', 100, 200);
    expect(track.bodies.get('/v/high/seg-001.m4s')?.observed).toBe(false);
    // The part of the high segment stays buffered: the low one goes in whole over it.
    track.chunk('/v/low/seg-001.m4s', 100, 100);
    track.finish('/v/low/seg-001.m4s', 100);
    expect(track.ops).toEqual(['init', 'seg-001 100', 'reset', 'init', 'seg-001 100']);
  });

  it('forgets a part-appended segment when a seek drops it', () => {
    const track = streamingTrack();
    const restart$ = new Subject<void>();
    const a = format('a', 3);
    trackLoader({ ports: track.ports, formatFor: () => a, wake$: NEVER, restart$, online$: of(true), goalSeconds: 2 }).subscribe();
    track.chunk('/v/a/seg-001.m4s', 100, 100);
    const first = track.bodies.get('/v/a/seg-001.m4s');
    restart$.next();
    expect(first?.observed).toBe(false);
    // The segment is asked for again and goes in whole, over the half second that was appended.
    track.finish('/v/a/seg-001.m4s', 400);
    expect(track.ops).toEqual(['init', 'seg-001 100', 'reset', 'seg-001 400']);
  });

  it('forgets what it appended of a failed transfer before the retry appends the body again', () => {
    createTestScheduler().run(({ flush }) => {
      const track = streamingTrack();
      const a = format('a', 1);
      trackLoader({ ports: track.ports, formatFor: () => a, wake$: NEVER, restart$: NEVER, online$: of(true), goalSeconds: 2, retryBaseMs: 10 }).subscribe();
      track.chunk('/v/a/seg-001.m4s', 100, 100);
      track.bodies.get('/v/a/seg-001.m4s')?.error(new Error('connection reset'));
      flush();
      track.chunk('/v/a/seg-001.m4s', 300, 300);
      track.finish('/v/a/seg-001.m4s', 300);
      expect(track.ops).toEqual(['init', 'seg-001 100', 'reset', 'seg-001 300']);
    });
  });
});
