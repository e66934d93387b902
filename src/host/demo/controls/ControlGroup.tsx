import type { FormEvent, ReactNode } from 'react';
import type { Player } from '../../sdk/Player';

/** What every group of the panel gets: the player (none until it exists) and whether its controls are disabled. */
export interface GroupProps {
  player: Player | undefined;
  disabled: boolean;
}

/** One titled group of the control panel. */
export function ControlGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="group">
      <legend>{title}</legend>
      {children}
    </fieldset>
  );
}

/** `e.preventDefault()` and run: every form of the panel submits with Enter as well as with its button. */
export const onSubmit = (run: () => void) => (e: FormEvent) => {
  e.preventDefault();
  run();
};
