import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DemoHost, embedHostFromLocation } from './DemoHost';
import { ComponentDemo } from './demo/ComponentDemo';
import { FacadeDemo } from './demo/FacadeDemo';
import './host.css';

const view = new URLSearchParams(location.search).get('view');

createRoot(document.getElementById('host-root')!).render(
  <StrictMode>
    {view === 'component' ? (
      <ComponentDemo embedHost={embedHostFromLocation()} />
    ) : view === 'facades' ? (
      <FacadeDemo embedHost={embedHostFromLocation()} />
    ) : (
      <DemoHost />
    )}
  </StrictMode>,
);
