import type { CSSProperties, ReactElement } from 'react';
import { normalizeHost } from '../sdk/buildEmbedUrl';
import { defaultHost } from '../sdk/defaultHost';
import { isValidVideoId } from '../sdk/isValidVideoId';

export interface PlayerFacadeProps {
  /** The video whose poster is shown. */
  videoId?: string;
  /** The embed origin, as for the player: the poster is its `/vi/{videoId}/poster`. */
  host?: string;
  /** The video's title: the button's label (“Play: …”) and the caption over the poster. */
  title?: string;
  /** Another image than the server's poster. */
  poster?: string;
  /** The box: numbers are pixels. Without a height the box keeps the video's 16:9 shape. */
  width?: number | string;
  height?: number | string;
  className?: string;
  style?: CSSProperties;
  /** The viewer pressed the button (click, Enter or Space): create the player now. */
  onActivate: () => void;
}

/** A `<link rel="preconnect">` to the embed origin, once per page: the player's first requests start sooner. */
function preconnect(origin: string): void {
  if (typeof document === 'undefined' || origin === location.origin) return;
  if ([...document.head.querySelectorAll('link[rel="preconnect"]')].some((l) => l.getAttribute('href') === origin)) return;
  const link = document.createElement('link');
  link.rel = 'preconnect';
  link.href = origin;
  document.head.append(link);
}

/**
 * The embed origin a player with these options uses (the same rule as the SDK's `Player`); on a server render without
 * a `host`, `''` (root-relative URLs).
 */
export function embedOrigin(host: string | undefined): string {
  return (host === undefined ? undefined : normalizeHost(host)) ?? normalizeHost(defaultHost()) ?? (typeof location === 'undefined' ? '' : location.origin);
}

/** The poster URL of a video on an embed origin (`GET /vi/{videoId}/poster` of the reference server). */
export const posterUrl = (origin: string, videoId: string): string => `${origin}/vi/${encodeURIComponent(videoId)}/poster`;

const css = (value: number | string | undefined) => (typeof value === 'number' ? `${value}px` : value);

/**
 * The facade's box, kept by the player that replaces it (so pressing play does not collapse the page's layout): the
 * given size, numbers as pixels; without a height, the video's 16:9 shape at the given (or full) width.
 */
export const facadeBoxSize = (width: number | string | undefined, height: number | string | undefined): CSSProperties => ({
  width: css(width) ?? '100%',
  ...(height === undefined ? { aspectRatio: '16 / 9' } : { height: css(height) }),
});

/**
 * The facade lives in the host's page, under the host's stylesheet: every size of its parts is set inline (inline
 * styles win over any rule the page has for `button`, `img` or `svg`, short of `!important`), so a page that gives its
 * buttons a height, or its images `height: auto`, does not shrink the facade's button, poster or icon.
 */
const NO_LIMITS: CSSProperties = { minWidth: 0, minHeight: 0, maxWidth: 'none', maxHeight: 'none' };
const FILL: CSSProperties = { ...NO_LIMITS, width: '100%', height: '100%', boxSizing: 'border-box' };
const BOX: CSSProperties = { position: 'relative', overflow: 'hidden', background: '#000' };
// No `all: unset`: the browser's focus ring must stay (drawn inside the box, which clips what overflows).
const BUTTON: CSSProperties = {
  ...FILL,
  display: 'block',
  position: 'absolute',
  inset: 0,
  margin: 0,
  padding: 0,
  border: 0,
  borderRadius: 0,
  background: 'none',
  color: 'inherit',
  font: 'inherit',
  cursor: 'pointer',
  outlineOffset: -4,
};
const IMAGE: CSSProperties = { ...FILL, position: 'absolute', inset: 0, margin: 0, objectFit: 'cover' };
const CAPTION: CSSProperties = {
  position: 'absolute',
  insetInline: 0,
  top: 0,
  padding: '12px 16px 28px',
  color: '#fff',
  font: '500 16px/1.3 system-ui, sans-serif',
  background: 'linear-gradient(rgba(0,0,0,.6), transparent)',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
};
const ICON: CSSProperties = { ...NO_LIMITS, position: 'absolute', left: '50%', top: '50%', width: 64, height: 64, transform: 'translate(-50%, -50%)' };

/**
 * A lightweight stand-in for a player, as `lite-youtube-embed` draws it: the video's poster and a play button, and no
 * iframe (nor any of the embed's scripts, media and requests) until the viewer presses it. For pages with many
 * players. The button is a real `<button>` named after the video, so it is reached with Tab and pressed with Enter or
 * Space; hovering or focusing it preconnects to the embed origin. `<EmbeddedPlayer facade>` uses it and then creates
 * the player with autoplay, moving the focus into it.
 */
export function PlayerFacade({ videoId, host, title, poster, width, height, className, style, onActivate }: PlayerFacadeProps): ReactElement {
  const origin = embedOrigin(host);
  const image = poster ?? (isValidVideoId(videoId) ? posterUrl(origin, videoId) : undefined);
  const label = title ? `Play: ${title}` : videoId ? `Play video ${videoId}` : 'Play video';
  const box: CSSProperties = { ...BOX, ...facadeBoxSize(width, height), ...style };
  return (
    <div className={className ?? 'vidframe-player'} style={box} data-facade="">
      <button
        type="button"
        className="vidframe-facade-button"
        aria-label={label}
        style={BUTTON}
        onClick={onActivate}
        onPointerEnter={() => preconnect(origin)}
        onFocus={() => preconnect(origin)}
      >
        {image && <img src={image} alt="" loading="lazy" decoding="async" style={IMAGE} />}
        {title && (
          <span aria-hidden="true" style={CAPTION}>
            {title}
          </span>
        )}
        <svg aria-hidden="true" viewBox="0 0 48 48" style={ICON}>
          <circle cx="24" cy="24" r="23" fill="#000" fillOpacity=".7" />
          <path d="M19 14v20l16-10z" fill="#fff" />
        </svg>
      </button>
    </div>
  );
}
