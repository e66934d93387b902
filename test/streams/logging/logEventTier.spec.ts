import { logEventTier } from '../../../streams/logging/logEventTier';
import { DelayedEventTier } from '../../../streams/scheduler/delayedEventTier';

describe('logEventTier', () => {
  it.each([
    ['playerError', DelayedEventTier.IMMEDIATE],
    ['hostCommandReceived', DelayedEventTier.FAST],
    ['navigationStateChange', DelayedEventTier.FAST],
    ['playerLoad', DelayedEventTier.DISPATCH_TO_EMPTY],
    ['visibilityChange', DelayedEventTier.DISPATCH_TO_EMPTY],
    ['networkChange', DelayedEventTier.DISPATCH_TO_EMPTY],
    ['videoLoad', DelayedEventTier.DISPATCH_TO_EMPTY],
    ['playerStateChange', DelayedEventTier.DEFAULT],
    ['watchTimeSegment', DelayedEventTier.DEFAULT],
  ])('dispatches %s at tier %d', (name, tier) => {
    expect(logEventTier({ name, payload: {} })).toBe(tier);
  });
});
