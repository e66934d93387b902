import { listeningTicks } from '../../../../src/host/sdk/listeningTicks';
import { HOST_LISTENING_INTERVAL_MS } from '../../../../streams/timing';
import { createTestScheduler } from '../../../helpers/testScheduler';

describe('listeningTicks', () => {
  it('says listening at once and every 250 ms until the first answer (production constant)', () => {
    expect(HOST_LISTENING_INTERVAL_MS).toBe(250);
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const starts = hot('  s');
      // The answer comes at 600 ms: ticks at 0, 250 and 500; the one due at 750 never comes.
      const answers = hot('600ms a');
      const expected = '   0 249ms 1 249ms 2';
      expectObservable(listeningTicks(starts, answers), '^ 2000ms !').toBe(expected, { 0: 0, 1: 1, 2: 2 });
      expectSubscriptions(answers.subscriptions).toBe('^ 599ms (!)');
    });
  });

  it('restarts on every start (iframe load) and stops on each answer (small interval)', () => {
    createTestScheduler().run(({ hot, time, expectObservable }) => {
      const intervalMs = time('----|');
      // prettier-ignore
      const starts = hot('  s---------------s-------');
      const answers = hot(' -----------a-------a----');
      // ticks at 0, 4, 8; the answer at 11 stops the loop; the start at 16 restarts it (tick 0 again); the answer
      // at 19 stops it before the tick due at 20.
      const expected = '    0---1---2-------0---- ';
      expectObservable(listeningTicks(starts, answers, { intervalMs }), '^ 23ms !').toBe(expected, { 0: 0, 1: 1, 2: 2 });
    });
  });
});
