// The only bridge between the page and the app: five functions, nothing else
// (never expose ipcRenderer itself). Built as CommonJS for the sandbox.
import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { PreloadBridge } from '../shared/bridge';

const bridge: PreloadBridge = {
  invoke: (method, args) => ipcRenderer.invoke('hearth:invoke', method, args),
  subscribe(listener) {
    const forward = (_event: IpcRendererEvent, name: string, payload: unknown) => listener(name, payload);
    ipcRenderer.on('hearth:event', forward);
    return () => {
      ipcRenderer.removeListener('hearth:event', forward);
    };
  },
  // Chromium knows the real path only of a file the user dropped or picked; the main
  // process records it as granted (synchronously, so the ingest call that follows finds it).
  pathForFile(file) {
    const path = webUtils.getPathForFile(file);
    return path && ipcRenderer.sendSync('hearth:grant', path) === true ? path : null;
  },
  // The main process shows the dialog and grants what the user chose.
  pickFolder: (title) => ipcRenderer.invoke('hearth:pickFolder', String(title)) as Promise<string | null>,
  showDataFolder: () => ipcRenderer.invoke('hearth:showDataFolder') as Promise<void>,
};

contextBridge.exposeInMainWorld('hearth', bridge);
