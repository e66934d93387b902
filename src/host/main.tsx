import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { DemoHost, embedHostFromLocation } from './DemoHost';
import { ComponentDemo } from './demo/ComponentDemo';
import './host.css';

createRoot(document.getElementById('host-root')!).render(
  <StrictMode>
    {new URLSearchParams(location.search).get('view') === 'component' ? <ComponentDemo embedHost={embedHostFromLocation()} /> : <DemoHost />}
  </StrictMode>,
);
