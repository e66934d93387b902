import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('player-root')!).render(<p>VidFrame</p>);
