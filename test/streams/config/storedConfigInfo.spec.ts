import { storedConfigInfo } from '../../../streams/config/storedConfigInfo';
import type { ConfigWriteResult, StoredConfig } from '../../../streams/storage/createConfigStore';
import { createTestScheduler } from '../../helpers/testScheduler';

const answer = (hotHashData: string) => ({ responseContext: { globalConfigGroup: { hotConfigGroup: {}, hotHashData } } });
const stored = (hashData: string): StoredConfig => ({ hot: { config: {}, hashData, timestamp: 0 } });

describe('storedConfigInfo', () => {
  it('starts from the start-up read, reads back after a write that changed the store, and not after one that did not', () => {
    createTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const start = cold('     --s|', { s: stored('h1') });
      const answers = hot('    -----a---b--', { a: answer('h2'), b: answer('h2') });
      const writes = [cold('   -(w|)', { w: { hot: true, cold: false } }), cold('-(w|)', { w: { hot: false, cold: false } })];
      const reads = cold('     -(r|)', { r: stored('h2') });
      const store = { writeFromResponse: jest.fn(() => writes.shift()!), read: jest.fn(() => reads) };
      // a at 5: written at 6, read back at 7; b at 9: written at 10, names h2 already: no read.
      const expected = '       --i----j----';
      expectObservable(storedConfigInfo({ storedAtStart$: start, logAnswer$: answers, store }), '^ 11ms !').toBe(expected, {
        i: { hotHashData: 'h1' },
        j: { hotHashData: 'h2' },
      });
      expectSubscriptions(reads.subscriptions).toBe('      ------^!');
      expectSubscriptions(answers.subscriptions).toBe('^-----------!');
    });
  });

  it('reads back an answer that wrote nothing while the current value does not name its hashes (a read that failed)', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const start = cold('  (s|)', { s: undefined });
      const answers = hot(' --a--', { a: answer('h1') });
      const store = { writeFromResponse: () => cold('-(w|)', { w: { hot: false, cold: false } }), read: () => cold('-(r|)', { r: stored('h1') }) };
      expectObservable(storedConfigInfo({ storedAtStart$: start, logAnswer$: answers, store })).toBe('u---j', { u: undefined, j: { hotHashData: 'h1' } });
    });
  });

  it('keeps the current value when the read-back finds nothing, and goes on after a failed write', () => {
    createTestScheduler().run(({ cold, hot, expectObservable }) => {
      const start = cold('  (s|)', { s: stored('h1') });
      const answers = hot(' --a--b--', { a: answer('h2'), b: answer('h3') });
      const writes = [cold<ConfigWriteResult>('-#', undefined, new Error('quota')), cold('-(w|)', { w: { hot: true, cold: false } })];
      const store = { writeFromResponse: () => writes.shift()!, read: () => cold('-(r|)', { r: undefined }) };
      expectObservable(storedConfigInfo({ storedAtStart$: start, logAnswer$: answers, store })).toBe('i-------', { i: { hotHashData: 'h1' } });
    });
  });
});
