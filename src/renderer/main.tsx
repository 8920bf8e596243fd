// First: zod must be configured before any schema is built (see zod-csp.ts).
import './zod-csp';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import './styles/memories.css';
import './styles/panels.css';
import './styles/history.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
