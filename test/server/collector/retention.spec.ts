import { startRetention } from '../../../server/collector/retention';
import type { CollectorStore } from '../../../server/collector/store';

const DAY = 24 * 3600 * 1000;

describe('retention job', () => {
  const log = () => ({ info: jest.fn(), error: jest.fn() });

  it('deletes what was received more than retentionDays ago, and logs how much went', async () => {
    const deleteReceivedBefore = jest.fn().mockResolvedValue(42);
    const logger = log();
    const job = startRetention({ deleteReceivedBefore } as unknown as CollectorStore, { retentionDays: 30, now: () => 100 * DAY, log: logger as never });
    await job.run();
    job.stop();
    expect(deleteReceivedBefore).toHaveBeenCalledWith(70 * DAY);
    expect(logger.info).toHaveBeenCalledWith({ deleted: 42, retentionDays: 30 }, 'collector: retention deleted old events');
  });

  it('runs one pass at a time, and a failed pass is logged, not thrown', async () => {
    let finish!: () => void;
    const deleteReceivedBefore = jest
      .fn()
      .mockImplementationOnce(() => new Promise<number>((resolve) => (finish = () => resolve(0))))
      .mockRejectedValueOnce(new Error('disk gone'));
    const logger = log();
    const job = startRetention({ deleteReceivedBefore } as unknown as CollectorStore, { retentionDays: 1, now: () => DAY, log: logger as never });
    const first = job.run();
    expect(job.run()).toBe(first); // a second trigger while the first runs joins it
    finish();
    await first;
    await job.run();
    job.stop();
    expect(deleteReceivedBefore).toHaveBeenCalledTimes(2);
    expect(logger.error).toHaveBeenCalledWith({ err: expect.any(Error) }, 'collector: retention run failed');
  });

  it('runs by itself every interval until stopped', async () => {
    jest.useFakeTimers();
    try {
      const deleteReceivedBefore = jest.fn().mockResolvedValue(0);
      const job = startRetention({ deleteReceivedBefore } as unknown as CollectorStore, {
        retentionDays: 1,
        now: () => DAY,
        log: log() as never,
        intervalMs: 60_000,
      });
      await jest.advanceTimersByTimeAsync(10_000); // the first pass, soon after start
      expect(deleteReceivedBefore).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(60_000);
      expect(deleteReceivedBefore).toHaveBeenCalledTimes(2);
      job.stop();
      await jest.advanceTimersByTimeAsync(600_000);
      expect(deleteReceivedBefore).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
