import { dialog, ipcMain, type BrowserWindow, type IpcMainEvent, type IpcMainInvokeEvent } from 'electron';
import type { Core } from '../core';
import { pageDoor } from './door';
import { saveExport } from './save-export';
import type { GrantedPaths } from './granted-paths';

export const INVOKE_CHANNEL = 'hearth:invoke';
export const EVENT_CHANNEL = 'hearth:event';
/** The preload reports the real path of a file the user dropped or picked (webUtils.getPathForFile). */
export const GRANT_CHANNEL = 'hearth:grant';
/** "Watch a folder…": the folder picker; the chosen folder is granted (docs/watched-folders.md). */
export const PICK_FOLDER_CHANNEL = 'hearth:pick-folder';

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
  ipcMain.handle(PICK_FOLDER_CHANNEL, async (event) => {
    if (!fromApp(event)) return null;
    const choice = await dialog.showOpenDialog(win, { title: 'Watch a folder', properties: ['openDirectory'] });
    const folder = choice.canceled ? undefined : choice.filePaths[0];
    return folder && grants.grant(folder) ? folder : null;
  });
  const unsubscribe = core.events.subscribe((name, payload) => {
    if (!win.isDestroyed()) win.webContents.send(EVENT_CHANNEL, name, payload);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(INVOKE_CHANNEL);
    ipcMain.removeHandler(PICK_FOLDER_CHANNEL);
    ipcMain.removeAllListeners(GRANT_CHANNEL);
  };
}
