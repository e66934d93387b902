import { useState } from 'react';
import { sizeFromFields } from '../ControlPanel.state';
import { ControlGroup, type GroupProps, onSubmit } from './ControlGroup';

/** The sizes offered as one-click chips. */
const PRESET_SIZES: readonly (readonly [width: number, height: number])[] = [
  [480, 270],
  [640, 360],
  [854, 480],
];

/** Resize the player: to the typed size or to a preset. */
export function SizeControls({ player, disabled }: GroupProps) {
  const [width, setWidth] = useState('640');
  const [height, setHeight] = useState('360');
  return (
    <ControlGroup title="Size">
      <form
        className="row"
        onSubmit={onSubmit(() => {
          const size = sizeFromFields(width, height);
          if (size) player?.setSize(size.width, size.height);
        })}
      >
        <label className="narrow">
          <span>Width</span>
          <input type="number" min={200} value={width} onChange={(e) => setWidth(e.target.value)} data-testid="width-input" />
        </label>
        <label className="narrow">
          <span>Height</span>
          <input type="number" min={200} value={height} onChange={(e) => setHeight(e.target.value)} data-testid="height-input" />
        </label>
        <button type="submit" disabled={disabled} data-testid="set-size">
          Resize
        </button>
        {PRESET_SIZES.map(([w, h]) => (
          <button
            key={w}
            type="button"
            className="chip"
            disabled={disabled}
            onClick={() => {
              setWidth(String(w));
              setHeight(String(h));
              player?.setSize(w, h);
            }}
          >
            {w}×{h}
          </button>
        ))}
      </form>
    </ControlGroup>
  );
}
