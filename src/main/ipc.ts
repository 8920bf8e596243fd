import { ipcMain, type BrowserWindow } from 'electron';
import type { Core } from '../core';

export const INVOKE_CHANNEL = 'hearth:invoke';
export const EVENT_CHANNEL = 'hearth:event';

/** The one IPC channel into dispatch, plus every core event forwarded to the window. */
export function connectIpc(core: Core, win: BrowserWindow): () => void {
  ipcMain.handle(INVOKE_CHANNEL, (event, method: unknown, args: unknown) => {
    // Only the app's own top frame may call the core.
    if (event.sender !== win.webContents || !event.senderFrame || event.senderFrame.parent !== null) {
      return { ok: false, error: { code: 'forbidden', message: 'This frame may not call Hearth.' } };
    }
    // The window is the user's own app: its calls are the user's.
    return core.dispatch(String(method), args, { actor: 'user' });
  });
  const unsubscribe = core.events.subscribe((name, payload) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, name, payload);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(INVOKE_CHANNEL);
  };
}
