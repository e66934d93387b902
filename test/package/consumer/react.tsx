/** A React host app on the `vidframe/react` entry (and the player type from the core entry). */
import { useState } from 'react';
import type { Player } from 'vidframe';
import { EmbeddedPlayer, usePlayerState } from 'vidframe/react';

export function App() {
  const [player, setPlayer] = useState<Player | undefined>();
  const state = usePlayerState(player);
  return (
    <div>
      <p data-state={state ?? 'none'}>{state === 1 ? 'playing' : 'not playing'}</p>
      <EmbeddedPlayer
        videoId="VFsunrise01"
        host="https://embed.example"
        onPlayer={setPlayer}
        onStateChange={(event) => console.log(event.data.toFixed(0), event.target.getCurrentTime().toFixed(1))}
      />
    </div>
  );
}
