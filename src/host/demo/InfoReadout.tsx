import type { ReactNode } from 'react';
import type { PlayerInfoCache, PlayerStateValue } from '../sdk/types';

const STATE_NAMES: Record<number, string> = { [-1]: 'unstarted', 0: 'ended', 1: 'playing', 2: 'paused', 3: 'buffering', 5: 'cued' };

/** `75.3` → `1:15.3`. */
export function clock(seconds: number | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '–:––';
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - m * 60;
  return `${m}:${rest < 10 ? '0' : ''}${rest.toFixed(1)}`;
}

function Row({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div className="readout-row">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** What the host's cache holds right now: every value as the embed delivered it. */
export function InfoReadout({
  info,
  state,
  captionLanguage,
  lastError,
}: {
  info: PlayerInfoCache;
  state: PlayerStateValue | undefined;
  captionLanguage: string;
  lastError: number | null;
}) {
  const duration = info.duration;
  const fraction = typeof duration === 'number' && duration > 0 && typeof info.currentTime === 'number' ? Math.min(1, info.currentTime / duration) : 0;
  const loaded = typeof info.videoLoadedFraction === 'number' ? info.videoLoadedFraction : 0;
  const playlist = info.playlist;
  return (
    <section className="readout card" aria-label="Player info">
      <h2>
        Player info
        <span className={`state state-${state ?? 'none'}`} data-testid="state" data-state={state ?? ''}>
          {state === undefined ? 'waiting' : `${STATE_NAMES[state] ?? state} (${state})`}
        </span>
      </h2>
      <div className="now-playing">
        <div className="title" data-testid="video-title">
          {info.videoData?.title || '—'}
        </div>
        <div className="author">{info.videoData?.author}</div>
      </div>
      <div className="progress" aria-hidden="true">
        <div className="loaded" style={{ width: `${loaded * 100}%` }} />
        <div className="played" style={{ width: `${fraction * 100}%` }} />
      </div>
      <dl className="readout-grid">
        <Row label="Time" testId="current-time">
          <span data-value={info.currentTime ?? ''}>{clock(info.currentTime)}</span> /{' '}
          <span data-testid="duration" data-value={duration ?? ''}>
            {clock(duration)}
          </span>
        </Row>
        <Row label="Video id" testId="video-id">
          {info.videoData?.video_id || '—'}
        </Row>
        <Row label="Volume" testId="volume">
          {info.volume ?? '—'}
        </Row>
        <Row label="Muted" testId="muted">
          {info.muted === undefined ? '—' : info.muted ? 'yes' : 'no'}
        </Row>
        <Row label="Speed" testId="rate">
          {info.playbackRate ?? '—'}
        </Row>
        <Row label="Quality" testId="quality">
          {info.playbackQuality || '—'}
        </Row>
        <Row label="Qualities" testId="qualities">
          {info.availableQualityLevels?.join(', ') || '—'}
        </Row>
        <Row label="Captions" testId="captions">
          {captionLanguage || 'off'}
        </Row>
        <Row label="Playlist" testId="playlist">
          {playlist?.length ? playlist.join(', ') : '—'}
        </Row>
        <Row label="Index" testId="playlist-index">
          {info.playlistIndex ?? '—'}
        </Row>
        <Row label="Loaded" testId="loaded">
          {Math.round(loaded * 100)}%
        </Row>
        <Row label="Size" testId="size">
          {info.size ? `${info.size.width}×${info.size.height}` : '—'}
        </Row>
        <Row label="Last error" testId="error-code">
          {lastError ?? '—'}
        </Row>
        <Row label="Video URL" testId="video-url">
          {info.videoUrl ? (
            <a href={info.videoUrl} target="_blank" rel="noreferrer">
              {info.videoUrl}
            </a>
          ) : (
            '—'
          )}
        </Row>
      </dl>
    </section>
  );
}
