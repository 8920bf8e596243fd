import { createClient, type ApiClient } from './client';
import { createHttpTransport } from './http';
import { createIpcTransport } from './ipc';
import { takeHostToken } from './token';
import { notify } from '../stores/toasts';

export type { ApiClient } from './client';
export { AppError } from '../../shared/errors';

let api: ApiClient | null = null;

const showNotes = (notes: string[]) => notes.forEach((n) => notify(n));

/**
 * The typed client, with its transport picked once at boot: Electron's
 * preload bridge when present, otherwise the browser host that served the page.
 */
export function getApi(): ApiClient {
  // One client per page: the transport holds the event socket.
  if (api) return api;
  if (window.hearth) {
    api = createClient(createIpcTransport(window.hearth), showNotes);
  } else {
    const token = takeHostToken(window) ?? '';
    api = createClient(createHttpTransport({ origin: window.location.origin, token }), showNotes);
  }
  return api;
}
