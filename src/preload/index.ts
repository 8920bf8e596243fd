// The only bridge between the page and the app: four functions, nothing else
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
  // The main process opens the picker and grants what the person chose (docs/watched-folders.md).
  pickFolder: () => ipcRenderer.invoke('hearth:pick-folder') as Promise<string | null>,
};

contextBridge.exposeInMainWorld('hearth', bridge);
