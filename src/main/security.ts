import { session, shell, type WebContents } from 'electron';
import { contentSecurityPolicy } from '../shared/csp';

/** Every response gets the strict CSP, whatever the page itself declares. */
export function enforceCsp(devServerUrl: string | null): void {
  // The dev server's hot reload needs its websocket and injected inline preamble; the built app needs neither.
  const policy = devServerUrl
    ? contentSecurityPolicy([devServerUrl.replace(/^http/, 'ws')]).replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
    : contentSecurityPolicy();
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [policy] } });
  });
  // The app needs no camera, microphone, notifications, clipboard reads or geolocation:
  // every request is refused, and every check ("is it granted?") answers no.
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

/** No new windows and no navigation away from the app; web links open in the user's browser. */
export function lockNavigation(contents: WebContents, appUrl: string): void {
  const appOrigin = new URL(appUrl).origin;
  const openOutside = (url: string) => {
    if (/^https?:\/\//.test(url)) void shell.openExternal(url);
  };
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url);
    return { action: 'deny' };
  });
  const appPage = appUrl.split('#')[0];
  contents.on('will-navigate', (event, url) => {
    // file:// pages all share the origin "null", so the built app may only reload itself.
    const ours = appOrigin === 'null' ? url.split('#')[0] === appPage : new URL(url).origin === appOrigin;
    if (ours) return;
    event.preventDefault();
    openOutside(url);
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
}
