import { hostCommandReceipts } from '../../../streams/host/hostCommandReceipts';
import type { PlayerReadiness } from '../../../streams/player/playerReadiness';
import { createTestScheduler } from '../../helpers/testScheduler';
import { command, HOST, hostWindow, listening, otherWindow, VIDEO, wire } from './fixtures';

const OTHER = 'https://other.example';

describe('hostCommandReceipts', () => {
  it('one receipt per command: not accepted before ready, accepted after; listening gives none', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const readiness = hot<PlayerReadiness>('l----r-------', { l: 'loading', r: 'ready' });
      const messages = hot('-L-P-----P-V-', { L: listening(), P: command('playVideo'), V: command('setVolume', [40]) });
      expectObservable(hostCommandReceipts(messages, readiness)).toBe('---a-----b-c-', {
        a: { command: 'playVideo', hostOrigin: HOST, accepted: false },
        b: { command: 'playVideo', hostOrigin: HOST, accepted: true },
        c: { command: 'setVolume', hostOrigin: HOST, accepted: true },
      });
    });
  });

  it('each kind of command: loads with rct, listeners, refused arguments, unexposed and privileged functions', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const readiness = hot<PlayerReadiness>('r', { r: 'ready' });
      const messages = hot('-abcdefg', {
        a: command('loadVideoById', [{ videoId: VIDEO, rct: 'CAEQ', rctn: '1' }]),
        b: command('addEventListener', ['onStateChange']),
        c: command('addEventListener', ['onNoSuchEvent']),
        d: command('seekTo', ['soon']),
        e: command('getCurrentTime'),
        f: command('setCaptions', [true]),
        g: command('loadModule', ['captions']),
      });
      expectObservable(hostCommandReceipts(messages, readiness)).toBe('-abcdefg', {
        a: { command: 'loadVideoById', hostOrigin: HOST, accepted: true },
        b: { command: 'addEventListener', hostOrigin: HOST, accepted: true },
        c: { command: 'addEventListener', hostOrigin: HOST, accepted: false },
        d: { command: 'seekTo', hostOrigin: HOST, accepted: false },
        e: { command: 'getCurrentTime', hostOrigin: HOST, accepted: false },
        f: { command: 'setCaptions', hostOrigin: HOST, accepted: false },
        g: { command: 'loadModule', hostOrigin: HOST, accepted: true },
      });
    });
  });

  it('a trusted origin may call the privileged command', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const readiness = hot<PlayerReadiness>('r', { r: 'ready' });
      const messages = hot('-a', { a: command('setCaptions', [true]) });
      expectObservable(hostCommandReceipts(messages, readiness, { trustedOrigins: [HOST] })).toBe('-a', {
        a: { command: 'setCaptions', hostOrigin: HOST, accepted: true },
      });
    });
  });

  it('what the protocol ignores gives nothing: another origin than the parameter, another window after the lock, junk', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const readiness = hot<PlayerReadiness>('r', { r: 'ready' });
      const messages = hot('-abcdef', {
        a: command('playVideo', undefined, OTHER),
        b: listening(1, HOST, hostWindow),
        c: command('playVideo', undefined, HOST, otherWindow),
        d: wire('not json'),
        e: wire({ event: 'command', func: 'playVideo' }, HOST, null),
        f: command('pauseVideo'),
      });
      expectObservable(hostCommandReceipts(messages, readiness, { originParam: HOST })).toBe('------f', {
        f: { command: 'pauseVideo', hostOrigin: HOST, accepted: true },
      });
    });
  });

  it("already locked by the page's inline responder: another window's commands give nothing from the start", () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const readiness = hot<PlayerReadiness>('r', { r: 'ready' });
      const messages = hot('-ab', { a: command('playVideo', undefined, HOST, otherWindow), b: command('pauseVideo') });
      expectObservable(hostCommandReceipts(messages, readiness, { lock: { source: hostWindow, origin: HOST } })).toBe('--b', {
        b: { command: 'pauseVideo', hostOrigin: HOST, accepted: true },
      });
    });
  });
});
