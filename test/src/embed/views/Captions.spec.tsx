import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import { Captions } from '../../../../src/embed/views/Captions';
import { DEFAULT_CAPTION_DISPLAY_SETTINGS } from '../../../../streams/player/captionSettings';

/** A WebVTT cue as Chromium gives it: `getCueAsHTML()` builds elements for the cue's markup (jsdom has no VTTCue). */
function vttCue(build: (doc: Document) => Node[], text = 'raw text'): TextTrackCue {
  return {
    text,
    getCueAsHTML() {
      const fragment = document.createDocumentFragment();
      fragment.append(...build(document));
      return fragment;
    },
  } as unknown as TextTrackCue;
}

const el = (doc: Document, tag: string, text: string, className?: string) => {
  const e = doc.createElement(tag);
  e.textContent = text;
  if (className) e.className = className;
  return e;
};

const renderCaptions = (cues: TextTrackCue[], settings: unknown = DEFAULT_CAPTION_DISPLAY_SETTINGS) =>
  render(
    <StrictMode>
      <Captions cues={cues} settings={settings} raised={false} />
    </StrictMode>,
  );

describe('Captions', () => {
  it('renders each cue from getCueAsHTML(): <i>, <b> and <c.class> are elements, not text', () => {
    const cue = vttCue(
      (d) => [d.createTextNode('the '), el(d, 'i', 'sun'), d.createTextNode(' over the '), el(d, 'b', 'test pattern'), el(d, 'span', ' now', 'yellow')],
      'the <i>sun</i> over the <b>test pattern</b><c.yellow> now</c>',
    );
    const { container } = renderCaptions([cue]);
    const lines = container.querySelectorAll('.vf-caption-line');
    expect(lines).toHaveLength(1);
    expect(lines[0].textContent).toBe('the sun over the test pattern now');
    expect(lines[0].querySelector('i')?.textContent).toBe('sun');
    expect(lines[0].querySelector('b')?.textContent).toBe('test pattern');
    expect(lines[0].querySelector('span.yellow')?.textContent).toBe(' now');
  });

  it('never parses cue text as HTML: a cue without getCueAsHTML shows its text, markup characters included', () => {
    const hostile = { text: '<img src=x onerror="window.__hit = 1"><b>bold?</b>' } as unknown as TextTrackCue;
    const { container } = renderCaptions([hostile]);
    const line = container.querySelector('.vf-caption-line')!;
    expect(line.querySelector('img, b')).toBeNull();
    expect(line.textContent).toBe('<img src=x onerror="window.__hit = 1"><b>bold?</b>');
  });

  it('shows two cues as two lines, and replaces a line when its cue changes', () => {
    const a = vttCue((d) => [d.createTextNode('first')]);
    const b = vttCue((d) => [d.createTextNode('second')]);
    const c = vttCue((d) => [d.createTextNode('third')]);
    const { container, rerender } = renderCaptions([a, b]);
    expect([...container.querySelectorAll('.vf-caption-line')].map((l) => l.textContent)).toEqual(['first', 'second']);
    rerender(
      <StrictMode>
        <Captions cues={[c]} settings={DEFAULT_CAPTION_DISPLAY_SETTINGS} raised />
      </StrictMode>,
    );
    expect([...container.querySelectorAll('.vf-caption-line')].map((l) => l.textContent)).toEqual(['third']);
    expect(container.querySelector('.vf-captions')!.className).toBe('vf-captions vf-captions-raised');
  });

  it('applies the display settings as validated values only', () => {
    const cue = vttCue((d) => [d.createTextNode('x')]);
    const { container } = renderCaptions([cue], { ...DEFAULT_CAPTION_DISPLAY_SETTINGS, fontSizeIncrement: 3, color: '#ff0', fontFamily: 2, charEdgeStyle: 4 });
    const box = container.querySelector('.vf-captions') as HTMLElement;
    expect(box.style.getPropertyValue('--vf-cc-scale')).toBe('1.75');
    expect(box.style.getPropertyValue('--vf-cc-color')).toBe('rgba(255, 255, 0, 1)');
    expect(box.dataset).toMatchObject({ ccFont: '2', ccEdge: '4' });
    const hostile = renderCaptions([cue], { color: 'red; display: none', fontSizeIncrement: 40 });
    const box2 = hostile.container.querySelector('.vf-captions') as HTMLElement;
    expect(box2.style.getPropertyValue('--vf-cc-scale')).toBe('1');
    expect(box2.style.getPropertyValue('--vf-cc-color')).toBe('rgba(255, 255, 255, 1)');
  });
});
