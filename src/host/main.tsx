import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DemoHost } from './DemoHost';
import './host.css';

createRoot(document.getElementById('host-root')!).render(
  <StrictMode>
    <DemoHost />
  </StrictMode>,
);
