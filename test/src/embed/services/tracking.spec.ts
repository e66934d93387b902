import { interval, take, VirtualTimeScheduler } from 'rxjs';
import { readingBefore } from '../../../../src/embed/services/tracking';

describe('readingBefore (issue 15: the beacons read the element time just before their interval ping)', () => {
  it('runs the hook right before each run of an action, a rescheduled interval included, on the wrapped clock', () => {
    const virtual = new VirtualTimeScheduler();
    const log: string[] = [];
    const scheduler = readingBefore(() => log.push(`read@${virtual.now()}`), virtual);
    interval(10, scheduler)
      .pipe(take(3))
      .subscribe((n) => log.push(`tick${n}@${scheduler.now()}`));
    virtual.flush();
    expect(log).toEqual(['read@10', 'tick0@10', 'read@20', 'tick1@20', 'read@30', 'tick2@30']);
  });

  it('reads nothing for an action unsubscribed before it runs', () => {
    const virtual = new VirtualTimeScheduler();
    let reads = 0;
    readingBefore(() => reads++, virtual)
      .schedule(() => undefined, 5)
      .unsubscribe();
    virtual.flush();
    expect(reads).toBe(0);
  });
});
