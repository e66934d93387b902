import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('host-root')!).render(<p>VidFrame demo host</p>);
