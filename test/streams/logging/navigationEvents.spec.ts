import { navigationEvents, videoLoadEvents, visualElementEvents } from '../../../streams/logging/navigationEvents';
import { navigationState } from '../../../streams/navigation/navigationState';
import { visualElementAttachCache } from '../../../streams/sampling/visualElementAttachCache';
import { createTestScheduler } from '../../helpers/testScheduler';

const nav = (state: string) => ({ name: 'navigationStateChange', payload: { state } });

describe('navigationEvents', () => {
  it('logs application_navigating at a start and none 5 s after the latest start (production value), never the initial none', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const starts = hot('-s 2999ms s');
      expectObservable(navigationEvents(navigationState(starts))).toBe('-a 7999ms n', { a: nav('application_navigating'), n: nav('none') });
    });
  });
});

describe('videoLoadEvents', () => {
  it('carries rct / rctn as tracking parameters, serialised and cut at 500 characters', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const loads = hot('-abc', {
        a: { videoId: 'VFsunrise01', referral: { rct: 'CAEQ', rctn: '3' } },
        b: { videoId: 'VFcitylight', referral: null },
        c: { videoId: 'VFsunrise01', referral: { rct: 'x'.repeat(600) } },
      });
      expectObservable(videoLoadEvents(loads)).toBe('-abc', {
        a: { name: 'videoLoad', payload: { videoId: 'VFsunrise01', trackingParams: 'rct=CAEQ&rctn=3' } },
        b: { name: 'videoLoad', payload: { videoId: 'VFcitylight' } },
        c: { name: 'videoLoad', payload: { videoId: 'VFsunrise01', trackingParams: `rct=${'x'.repeat(496)}` } },
      });
    });
  });
});

describe('visualElementEvents', () => {
  it('attaches each video once, through the attach cache (1000 entries by default)', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const ids = hot('-abab-', { a: 'VFsunrise01', b: 'VFcitylight' });
      const attached = (videoId: string) => ({ name: 'visualElementAttached', payload: { ve: 'video', videoId } });
      expectObservable(visualElementEvents(ids)).toBe('-ab---', { a: attached('VFsunrise01'), b: attached('VFcitylight') });
    });
    expect(visualElementAttachCache().limit).toBe(1000);
  });

  it('a video forgotten by a full cache is attached again', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const ids = hot('-abca', { a: 'A', b: 'B', c: 'C' });
      const attached = (videoId: string) => ({ name: 'visualElementAttached', payload: { ve: 'video', videoId } });
      expectObservable(visualElementEvents(ids, visualElementAttachCache(2))).toBe('-abca', { a: attached('A'), b: attached('B'), c: attached('C') });
    });
  });
});
