import { adStatusCheck, AdStatus } from '../../../streams/adStatus/adStatusCheck';
import { AD_STATUS_WAIT_MS } from '../../../streams/timing';
import { createTestScheduler } from '../../helpers/testScheduler';

const values = { l: AdStatus.LOADED, p: AdStatus.PRESENT, t: AdStatus.TIMED_OUT };
/** A global absent when the check starts and present from then on (the script sets it just before its load event). */
const absentAtStart = () => {
  let reads = 0;
  return () => reads++ > 0;
};

describe('adStatusCheck', () => {
  it('stores 1 for loaded, 2 for present, 3 for timed out (spec §4)', () => {
    expect(values).toEqual({ l: 1, p: 2, t: 3 });
  });

  it('is 2 at once, and loads nothing, when the global is already present', () => {
    const loadScript = jest.fn();
    createTestScheduler().run(({ expectObservable }) => {
      expectObservable(adStatusCheck({ isPresent: () => true, loadScript })).toBe('(p|)', values);
    });
    expect(loadScript).not.toHaveBeenCalled();
  });

  it('is 1 when the script loads and sets its global; the load is then let go', () => {
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      let present = false;
      const script = cold('---l-', { l: 'load' });
      const check$ = adStatusCheck({ isPresent: () => present, loadScript: () => script });
      // The script "runs" (sets its global) just before its load event at frame 3.
      cold('--x').subscribe(() => (present = true));
      expectObservable(check$).toBe('---(l|)', values);
      expectSubscriptions(script.subscriptions).toBe('^--!');
    });
  });

  it('is 3 after 5 s when the script never answers (production constant)', () => {
    expect(AD_STATUS_WAIT_MS).toBe(5_000);
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const script = cold('-');
      // 4999 ms of silence, then the value and the completion together at frame 5000.
      expectObservable(adStatusCheck({ isPresent: () => false, loadScript: () => script })).toBe('5000ms (t|)', values);
      expectSubscriptions(script.subscriptions).toBe('^ 4999ms !');
    });
  });

  it('is 1 for a load just before the 5 s and 3 for one just after (production constant)', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      expectObservable(adStatusCheck({ isPresent: absentAtStart(), loadScript: () => cold('4999ms l') })).toBe('4999ms (l|)', values);
      expectObservable(adStatusCheck({ isPresent: absentAtStart(), loadScript: () => cold('5001ms l') })).toBe('5000ms (t|)', values);
    });
  });

  it('waits out the timeout after a load error, or a load that set no global', () => {
    createTestScheduler().run(({ cold, time, expectObservable }) => {
      const waitMs = time('-----|');
      expectObservable(adStatusCheck({ isPresent: () => false, loadScript: () => cold('-#'), waitMs })).toBe('-----(t|)', values);
      expectObservable(adStatusCheck({ isPresent: () => false, loadScript: () => cold('-l|'), waitMs })).toBe('-----(t|)', values);
    });
  });
});
