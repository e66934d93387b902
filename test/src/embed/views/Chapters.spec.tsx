import { Profiler } from 'react';
import { act, render, screen } from '@testing-library/react';
import { BehaviorSubject } from 'rxjs';
import type { EmbedPlayer } from '../../../../src/embed/player/EmbedPlayer';
import { ChapterTitle } from '../../../../src/embed/views/Chapters';
import { SeekBar } from '../../../../src/embed/views/SeekBar';
import type { ChapterInfo } from '../../../../streams/config/playerConfig';
import { EMPTY_MEDIA_SNAPSHOT } from '../../../../streams/player/playerInfo';

const CHAPTERS: ChapterInfo[] = [
  { title: 'Before dawn', timeRangeStartMillis: 0 },
  { title: 'The horizon', timeRangeStartMillis: 4000 },
  { title: 'Full light', timeRangeStartMillis: 8000 },
];

/** A player with only what the seek bar and the chapter title read, its time driven by hand. */
function fakePlayer(chapters: ChapterInfo[] | undefined) {
  const info$ = new BehaviorSubject({ currentTime: 0, duration: 12 });
  const player = {
    model$: new BehaviorSubject({ response: { playabilityStatus: { status: 'OK' }, ...(chapters && { chapters }) } }),
    info$,
    media$: new BehaviorSubject({ ...EMPTY_MEDIA_SNAPSHOT, duration: 12 }),
    command: () => undefined,
  } as unknown as EmbedPlayer;
  return { player, at: (t: number) => act(() => info$.next({ currentTime: t, duration: 12 })) };
}

describe('chapters in the controls', () => {
  it('the title after the time and the slider text follow the chapter; the title renders only when the chapter changes', () => {
    const { player, at } = fakePlayer(CHAPTERS);
    let commits = 0;
    const { container } = render(
      <Profiler id="chapters" onRender={() => commits++}>
        <SeekBar player={player} />
        <ChapterTitle player={player} />
      </Profiler>,
    );
    const slider = screen.getByRole('slider', { name: 'Seek' });
    const title = () => container.querySelector('.vf-chapter-title')?.textContent;
    expect(title()).toBe('Before dawn');
    expect(slider.getAttribute('aria-valuetext')).toBe('0 seconds of 12 seconds, Chapter: Before dawn');
    expect(container.querySelector('.vf-seek-track')!.hasAttribute('data-chapters')).toBe(true);
    expect(container.querySelector<HTMLElement>('.vf-seek-track')!.style.getPropertyValue('--vf-chapter-mask')).toContain('linear-gradient');
    commits = 0;
    at(1.5);
    at(3.9);
    expect(commits).toBe(0);
    expect(slider.getAttribute('aria-valuetext')).toBe('3 seconds of 12 seconds, Chapter: Before dawn');
    at(4.2);
    expect(title()).toBe('The horizon');
    expect(slider.getAttribute('aria-valuetext')).toBe('4 seconds of 12 seconds, Chapter: The horizon');
    expect(commits).toBe(1);
    at(9);
    expect(title()).toBe('Full light');
  });

  it('a video without chapters: no title, an unmarked bar, the value text without a chapter', () => {
    const { player } = fakePlayer(undefined);
    const { container } = render(
      <>
        <SeekBar player={player} />
        <ChapterTitle player={player} />
      </>,
    );
    expect(container.querySelector('.vf-chapter-title')).toBeNull();
    expect(container.querySelector('.vf-seek-track')!.hasAttribute('data-chapters')).toBe(false);
    expect(screen.getByRole('slider', { name: 'Seek' }).getAttribute('aria-valuetext')).toBe('0 seconds of 12 seconds');
  });
});
