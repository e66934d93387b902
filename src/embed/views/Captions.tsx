import { useLayoutEffect, useRef, type CSSProperties } from 'react';
import { captionStyle } from '../../../streams/player/captionSettings';

/**
 * A cue's content as nodes: `VTTCue.getCueAsHTML()` turns WebVTT markup (`<i>`, `<b>`, `<u>`, `<c.class>`, `<v>`,
 * `<ruby>`, `<lang>`) into elements and everything else into text, so nothing from the file is parsed as HTML. A cue
 * without it (not a WebVTT cue) is shown as plain text.
 */
function cueContent(cue: TextTrackCue, doc: Document): Node {
  const vtt = cue as Partial<VTTCue>;
  if (typeof vtt.getCueAsHTML === 'function') return vtt.getCueAsHTML.call(cue);
  return doc.createTextNode(typeof vtt.text === 'string' ? vtt.text : '');
}

/** One cue: an empty box the cue's fragment is appended to (never `innerHTML`). */
function CaptionCue({ cue }: { cue: TextTrackCue }) {
  const ref = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el) el.replaceChildren(cueContent(cue, el.ownerDocument));
  }, [cue]);
  return <span ref={ref} className="vf-caption-line" />;
}

/**
 * The caption cues showing now, styled by the display settings (`setOption('captions', 'fontSize' | 'displaySettings',
 * …)`): size, font, edge, colours of the text, of its box and of the window around the cues. Every value comes from
 * {@link captionStyle}, which validates the settings again.
 */
export function Captions({ cues, settings, raised }: { cues: readonly TextTrackCue[]; settings: unknown; raised: boolean }) {
  const s = captionStyle(settings);
  const style = {
    '--vf-cc-scale': String(s.fontScale),
    '--vf-cc-color': s.color,
    '--vf-cc-background': s.background,
    '--vf-cc-window': s.window,
  } as CSSProperties;
  return (
    <div className={`vf-captions${raised ? ' vf-captions-raised' : ''}`} aria-live="off" data-cc-font={s.fontFamily} data-cc-edge={s.edgeStyle} style={style}>
      {cues.map((cue, i) => (
        <CaptionCue key={i} cue={cue} />
      ))}
    </div>
  );
}
