import { dialog, ipcMain, shell, type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent } from 'electron';
import type { Core } from '../core';
import { pageDoor } from './door';
import { saveExport } from './save-export';
import type { GrantedPaths } from './granted-paths';

export const INVOKE_CHANNEL = 'hearth:invoke';
export const EVENT_CHANNEL = 'hearth:event';
/** The preload reports the real path of a file the user dropped or picked (webUtils.getPathForFile). */
export const GRANT_CHANNEL = 'hearth:grant';
/** The app's folder dialog: the one way a page names a folder (the workspace, docs/security.md). */
export const PICK_FOLDER_CHANNEL = 'hearth:pickFolder';
/** Settings → Data's "Show in folder": the main process opens the data folder; its path never reaches the page. */
export const SHOW_DATA_FOLDER_CHANNEL = 'hearth:showDataFolder';

/** The one IPC channel into dispatch, plus every core event forwarded to the window. */
export function connectIpc(core: Core, win: BrowserWindow, grants: GrantedPaths): () => void {
  // Only the app's own top frame may call the core.
  const fromApp = (event: IpcMainInvokeEvent | IpcMainEvent) =>
    event.sender === win.webContents && !!event.senderFrame && event.senderFrame.parent === null;
  const door = pageDoor(core.dispatch, grants);
  ipcMain.handle(INVOKE_CHANNEL, (event, method: unknown, args: unknown) => {
    if (!fromApp(event)) return { ok: false, error: { code: 'forbidden', message: 'This frame may not call Hearth.' } };
    const name = String(method);
    return name === 'personas.export' ? door(name, args).then((answer) => saveExport(win, answer)) : door(name, args);
  });
  // The page cannot send on this channel itself (context isolation; the bridge only forwards paths
  // Chromium gives for real dropped or picked files), so a grant is a user's choice.
  ipcMain.on(GRANT_CHANNEL, (event, path: unknown) => {
    event.returnValue = fromApp(event) && grants.grant(path);
  });
  ipcMain.handle(PICK_FOLDER_CHANNEL, async (event, title: unknown) => {
    if (!fromApp(event)) return null;
    const choice = await dialog.showOpenDialog(win, { title: String(title).slice(0, 200), properties: ['openDirectory', 'createDirectory'] });
    const path = choice.canceled ? undefined : choice.filePaths[0];
    return path && grants.grant(path) ? path : null;
  });
  ipcMain.handle(SHOW_DATA_FOLDER_CHANNEL, async (event) => {
    if (fromApp(event) && core.ctx.dataDir) await shell.openPath(core.ctx.dataDir);
  });
  const unsubscribe = core.events.subscribe((name, payload) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, name, payload);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(INVOKE_CHANNEL);
    ipcMain.removeHandler(PICK_FOLDER_CHANNEL);
    ipcMain.removeHandler(SHOW_DATA_FOLDER_CHANNEL);
    ipcMain.removeAllListeners(GRANT_CHANNEL);
  };
}
