import { StrictMode, type ReactNode } from 'react';
import { renderHook } from '@testing-library/react';
import { of } from 'rxjs';
import { useSuggestions } from '../../../../src/embed/views/Suggestions';
import type { SuggestionLoader } from '../../../../src/embed/services/suggestions';
import type { Suggestion } from '../../../../streams/player/endScreenSuggestions';

const OCEAN: Suggestion = {
  videoId: 'VFoceanwave',
  title: 'Ocean wave',
  channel: 'VidFrame Studio',
  channelId: 'UCvidframeStudio00000000',
  length: '0:15',
  thumbnailUrl: '',
};

/** A loader answering each call with the next of `answers` (the last one again when they run out), counting calls. */
function loader(...answers: Suggestion[][]): SuggestionLoader & { calls: string[] } {
  const calls: string[] = [];
  const load = ((videoId: string) => {
    calls.push(videoId);
    return of(answers[Math.min(calls.length - 1, answers.length - 1)]);
  }) as SuggestionLoader & { calls: string[] };
  load.calls = calls;
  return load;
}

const wrapper = ({ children }: { children: ReactNode }) => <StrictMode>{children}</StrictMode>;

describe('useSuggestions: asked when wanted, once per video unless the answer was empty', () => {
  it('nothing is asked until they are wanted', () => {
    const load = loader([OCEAN]);
    const { result } = renderHook(({ wanted }) => useSuggestions(load, 'VFsunrise01', wanted), { wrapper, initialProps: { wanted: false } });
    expect(result.current).toEqual([]);
    expect(load.calls).toEqual([]);
  });

  it('a video answered once is not asked again when they are wanted again', () => {
    const load = loader([OCEAN]);
    const { result, rerender } = renderHook(({ wanted }) => useSuggestions(load, 'VFsunrise01', wanted), { wrapper, initialProps: { wanted: true } });
    expect(result.current).toEqual([OCEAN]);
    const asked = load.calls.length;
    rerender({ wanted: false });
    rerender({ wanted: true });
    expect(load.calls).toHaveLength(asked);
    expect(result.current).toEqual([OCEAN]);
  });

  it('an empty answer (a failed call) is asked again the next time they are wanted', () => {
    const load = loader([], [OCEAN]);
    const { result, rerender } = renderHook(({ wanted }) => useSuggestions(load, 'VFsunrise01', wanted), { wrapper, initialProps: { wanted: true } });
    expect(result.current).toEqual([]);
    const asked = load.calls.length;
    rerender({ wanted: false });
    rerender({ wanted: true });
    expect(load.calls.length).toBeGreaterThan(asked);
    expect(result.current).toEqual([OCEAN]);
  });
});
