import { fileURLToPath } from 'node:url';
import { BrowserWindow } from 'electron';
import { APP_URL } from './app-protocol';
import { lockNavigation } from './security';

/** The app window: isolated, sandboxed renderer with only the preload bridge. */
export function createMainWindow(appUrl: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1200,
    height: 800,
    title: 'Hearth',
    // Window and taskbar icon on Linux and Windows (macOS takes the bundle's icon from the installer).
    icon: fileURLToPath(new URL('../renderer/icon.png', import.meta.url)),
    show: false,
    webPreferences: {
      // A sandboxed renderer can only load a CommonJS preload (see electron.vite.config.ts).
      preload: fileURLToPath(new URL('../preload/index.cjs', import.meta.url)),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  });
  lockNavigation(win.webContents, appUrl);
  win.once('ready-to-show', () => win.show());
  void win.loadURL(appUrl);
  return win;
}

/** The built renderer, or the dev server while running `electron-vite dev`. */
export function rendererUrl(devServerUrl: string | null): string {
  return devServerUrl ?? APP_URL;
}

/** The folder of the built renderer, served at app://hearth/. */
export const RENDERER_DIR = fileURLToPath(new URL('../renderer/', import.meta.url));
