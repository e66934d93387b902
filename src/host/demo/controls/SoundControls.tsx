import { ControlGroup, type GroupProps } from './ControlGroup';

/** The volume slider and the mute toggle. */
export function SoundControls({ player, disabled, volume, muted }: GroupProps & { volume: number; muted: boolean | undefined }) {
  return (
    <ControlGroup title="Sound">
      <div className="row">
        <input
          className="grow"
          type="range"
          min={0}
          max={100}
          step={1}
          value={volume}
          disabled={disabled}
          onChange={(e) => player?.setVolume(Number(e.target.value))}
          aria-label="Volume"
          data-testid="volume-slider"
        />
        <output className="value">{volume}</output>
        <button type="button" disabled={disabled} onClick={() => (muted ? player?.unMute() : player?.mute())} data-testid="mute-toggle">
          {muted ? 'Unmute' : 'Mute'}
        </button>
      </div>
    </ControlGroup>
  );
}
