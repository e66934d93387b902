import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { EmbedApp } from './EmbedApp';
import type { EmbedPlayer } from './EmbedPlayer';
import type { Identity } from './identity';
import type { PlayerShell } from './playerShell';
import type { ViewerActions } from './viewerActions';

/**
 * The controls' chunk (issue 15): React and the views, loaded by `main.ts` once the player is ready. They render into
 * the shell's `.vf-ui` layer, around the `<video>` the player already plays.
 */
export function mountEmbedUi(shell: PlayerShell, props: { player: EmbedPlayer; identity?: Identity; actions?: ViewerActions }): Root {
  const root = createRoot(shell.ui);
  root.render(
    <StrictMode>
      <EmbedApp shell={shell} {...props} />
    </StrictMode>,
  );
  return root;
}
