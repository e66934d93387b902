import { playerReadiness$ } from '../../../streams/player/playerReadiness';
import { PLAYER_READINESS_POLL_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const values = { l: 'loading', r: 'ready' } as const;

describe('playerReadiness$ (spec §4, §9)', () => {
  it('polls every 50 ms (production constant) and turns ready at the first true answer', () => {
    expect(PLAYER_READINESS_POLL_MS).toBe(50);
    const scheduler = createTestScheduler();
    scheduler.run(({ expectObservable }) => {
      // Ready from 120 ms on: the checks at 0, 50, 100 say no; the check at 150 says yes.
      const isReady = () => scheduler.now() >= 120;
      expectObservable(playerReadiness$(isReady, { scheduler })).toBe('l 149ms (r|)', values);
    });
  });

  it('is ready at once when the player already is', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ expectObservable }) => {
      expectObservable(playerReadiness$(() => true, { scheduler })).toBe('(lr|)', values);
    });
  });

  it('checks at the injected interval and stops polling once ready', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ time, expectObservable }) => {
      let checks = 0;
      const pollMs = time('---|');
      const isReady = () => ++checks === 3; // on subscription (0), at 3, at 6
      expectObservable(playerReadiness$(isReady, { pollMs, scheduler })).toBe('l-----(r|)', values);
      scheduler.schedule(() => expect(checks).toBe(3), 20);
    });
  });

  it('stays loading while never ready, and stops when unsubscribed', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ expectObservable }) => {
      let checks = 0;
      expectObservable(
        playerReadiness$(() => (checks++, false), { scheduler }),
        '^ 200ms !',
      ).toBe('l', values);
      scheduler.schedule(() => expect(checks).toBe(5), 1000); // 0, 50, 100, 150, 200 — then nothing more
    });
  });

  it('an event that may have made it ready checks at once: no wait for the next poll', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      // Ready from 120 ms on; the element's loadedmetadata fires at 120 ms: ready then, not at the 150 ms poll.
      const isReady = () => scheduler.now() >= 120;
      const changes$ = hot('120ms c', { c: 'loadedmetadata' });
      expectObservable(playerReadiness$(isReady, { scheduler, changes$ })).toBe('l 119ms (r|)', values);
    });
  });

  it('an event while not yet ready changes nothing; the poll still finds readiness (spec §9 stays)', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ hot, expectObservable }) => {
      const isReady = () => scheduler.now() >= 120;
      const changes$ = hot('30ms c', { c: 'progress' });
      expectObservable(playerReadiness$(isReady, { scheduler, changes$ })).toBe('l 149ms (r|)', values);
    });
  });
});
