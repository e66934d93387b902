import { shareReplay } from 'rxjs';
import type { HeartbeatParams, HeartbeatRequest } from '../../../streams/config/heartbeatTypes';
import { HeartbeatAnswerError, heartbeatVerdict, playerHeartbeat } from '../../../streams/player/playerHeartbeat';
import { initialPlayerModel, type PlayerModel } from '../../../streams/player/playerModel';
import { createTestScheduler } from '../../helpers/testScheduler';
import { configFor, response } from './fixtures';

/** The model once load `seq` of `videoId` has its answer, with these heartbeat parameters (none: no heartbeat). */
const loaded = (seq: number, params?: HeartbeatParams, videoId = 'VFheartbt01'): PlayerModel => ({
  ...initialPlayerModel(configFor()),
  videoId,
  loadSeq: seq,
  response: { ...response(videoId), ...(params && { heartbeatParams: params }) },
});
const ok = (data?: string) => ({ playabilityStatus: { status: 'OK' }, ...(data && { heartbeatServerData: data }) });
const stop = { playabilityStatus: { status: 'UNPLAYABLE', reason: 'Ended here.' } };
const failed = (internal: string, message: string, seq = 1) => ({ type: 'requestFailed', seq, internal, message });

describe('heartbeatVerdict', () => {
  it('OK goes on with the server data; another status stops; stopHeartbeat ends the heartbeat; a non-answer throws', () => {
    expect(heartbeatVerdict(ok('d'))).toEqual({ kind: 'continue', serverData: 'd' });
    expect(heartbeatVerdict(ok())).toEqual({ kind: 'continue' });
    expect(heartbeatVerdict(stop)).toEqual({ kind: 'stop', reason: 'Ended here.' });
    expect(heartbeatVerdict({ playabilityStatus: { status: 'LOGIN_REQUIRED' } })).toEqual({ kind: 'stop' });
    expect(heartbeatVerdict({ ...ok('d'), stopHeartbeat: true })).toEqual({ kind: 'quiet' });
    for (const bad of [null, 'text', {}, { playabilityStatus: 'OK' }, { playabilityStatus: {} }]) {
      expect(() => heartbeatVerdict(bad)).toThrow(HeartbeatAnswerError);
    }
  });
});

describe('playerHeartbeat', () => {
  it('at production values: a heartbeat when playing starts and every 5 s, each with the token and the last server data; a stop answer fails the load', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      let calls = 0;
      const answers = [ok('d1'), ok('d2'), stop];
      const model$ = hot('m', { m: loaded(1, { heartbeatToken: 'tok' }) });
      const playing$ = hot('t', { t: true });
      const result = playerHeartbeat(model$, playing$, {
        sendHeartbeat: () => cold<unknown>('-(a|)', { a: answers[calls++] }),
      });
      // Heartbeats at 0, 5000 and 10000 ms (PLAYER_HEARTBEAT_INTERVAL_MS); the third answer, 1 frame later, stops.
      expectObservable(result).toBe('10001ms x', { x: failed('heartbeat.stop', 'Ended here.') });
    });
  });

  it('sends the token and sends back the server data of the previous answer', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, flush }) => {
      const calls: HeartbeatRequest[] = [];
      const answers = [ok('d1'), ok('d2'), ok()];
      const result = playerHeartbeat(hot('m', { m: loaded(1, { heartbeatToken: 'tok' }) }), hot('t', { t: true }), {
        sendHeartbeat: (request) => cold('(a|)', { a: answers[calls.push(request) - 1] }),
        intervalMs: 3,
      });
      expectObservable(result, '^ 9ms !').toBe('');
      flush();
      expect(calls).toEqual([
        { videoId: 'VFheartbt01', heartbeatToken: 'tok' },
        { videoId: 'VFheartbt01', heartbeatToken: 'tok', heartbeatServerData: 'd1' },
        { videoId: 'VFheartbt01', heartbeatToken: 'tok', heartbeatServerData: 'd2' },
        // An answer without data keeps the last one.
        { videoId: 'VFheartbt01', heartbeatToken: 'tok', heartbeatServerData: 'd2' },
      ]);
    });
  });

  it('beats only while playing: none while paused, one at once when playing again', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot, cold, expectObservable, flush }) => {
      const at: number[] = [];
      const result = playerHeartbeat(hot('m', { m: loaded(1, {}) }), hot('t----f----t', { t: true, f: false }), {
        sendHeartbeat: () => {
          at.push(scheduler.now());
          return cold('(a|)', { a: ok() });
        },
        intervalMs: 3,
      });
      expectObservable(result, '^ 14ms !').toBe('');
      flush();
      // Playing 0–4: beats at 0 and 3; paused 5–9; playing from 10: beats at 10 and 13.
      expect(at).toEqual([0, 3, 10, 13]);
    });
  });

  it('a failing heartbeat is asked again 1 s, then 2 s later; failing still, heartbeat.servererror fails the load (production values)', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, expectSubscriptions }) => {
      const failing = cold('-#', undefined, new Error('500'));
      const result = playerHeartbeat(hot('m', { m: loaded(1, {}) }), hot('t', { t: true }), { sendHeartbeat: () => failing });
      // Tries at 0, 1 + 1000 and 1002 + 2000 (PLAYER_HEARTBEAT_RETRY_DELAY_MS doubled); the third fails at 3003.
      expectObservable(result).toBe('3003ms x', { x: failed('heartbeat.servererror', 'Playback stopped: the server could not confirm it may go on.') });
      expectSubscriptions(failing.subscriptions).toBe(['^!', '1001ms ^!', '3002ms ^!']);
    });
  });

  it('one failure then an answer: playback goes on; maxRetries from the answer; softFailOnError ends only the heartbeat', () => {
    createTestScheduler().run(({ hot, cold, expectObservable }) => {
      let n = 0;
      const flaky = () => (n++ === 0 ? cold<unknown>('-#') : cold<unknown>('(a|)', { a: ok() }));
      expectObservable(playerHeartbeat(hot('m', { m: loaded(1, {}) }), hot('t', { t: true }), { sendHeartbeat: flaky }), '^ 20s !').toBe('');

      const none = cold('-#');
      const noRetry = playerHeartbeat(hot('m', { m: loaded(2, { maxRetries: '0' }) }), hot('t', { t: true }), { sendHeartbeat: () => none });
      expectObservable(noRetry).toBe('-x', { x: failed('heartbeat.servererror', 'Playback stopped: the server could not confirm it may go on.', 2) });

      const soft = cold('-#');
      const softFail = playerHeartbeat(hot('m', { m: loaded(3, { maxRetries: '0', softFailOnError: true }) }), hot('t', { t: true }), {
        sendHeartbeat: () => soft,
      });
      expectObservable(softFail, '^ 20s !').toBe('');
    });
  });

  it('stopHeartbeat ends the heartbeat; an answer without heartbeatParams has none; a new load starts afresh', () => {
    createTestScheduler().run(({ hot, cold, expectObservable, flush }) => {
      const calls: { seq: number; request: HeartbeatRequest }[] = [];
      let seq = 0;
      const model$ = hot('a 9ms b 9ms c', { a: loaded(1, {}), b: loaded(2, undefined, 'VFoceanwave'), c: loaded(3, { heartbeatToken: 't3' }) });
      model$.subscribe((m) => (seq = m.loadSeq));
      // A state: each load's heartbeat hears the current value.
      const playing$ = hot('t', { t: true }).pipe(shareReplay(1));
      const result = playerHeartbeat(model$, playing$, {
        sendHeartbeat: (request) => {
          calls.push({ seq, request });
          return cold('(a|)', { a: seq === 1 ? { ...ok('d'), stopHeartbeat: true } : ok('d3') });
        },
        intervalMs: 3,
      });
      expectObservable(result, '^ 24ms !').toBe('');
      flush();
      // Load 1: one heartbeat, told to stop; load 2: none; load 3 (at 20): beats at 20 and 23, without load 1's data.
      expect(calls).toEqual([
        { seq: 1, request: { videoId: 'VFheartbt01' } },
        { seq: 3, request: { videoId: 'VFheartbt01', heartbeatToken: 't3' } },
        { seq: 3, request: { videoId: 'VFheartbt01', heartbeatToken: 't3', heartbeatServerData: 'd3' } },
      ]);
    });
  });

  it('an interval named by the answer is used when it is at least 1 s', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot, cold, expectObservable, flush }) => {
      const at: number[] = [];
      const named = playerHeartbeat(hot('m', { m: loaded(1, { intervalMilliseconds: '1000' }) }), hot('t', { t: true }), {
        sendHeartbeat: () => {
          at.push(scheduler.now());
          return cold('(a|)', { a: ok() });
        },
      });
      expectObservable(named, '^ 3000ms !').toBe('');
      flush();
      expect(at).toEqual([0, 1000, 2000, 3000]);
    });
  });
});
