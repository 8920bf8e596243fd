// First: zod must be configured before any schema is built (see zod-csp.ts).
import './zod-csp';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { usePersonas } from './stores/personas';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/memories.css';
import './styles/panels.css';
import './styles/history.css';

// The persona list is the first thing the page shows: asked for before the first render, not after it (docs/startup.md).
void usePersonas.getState().load();

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
