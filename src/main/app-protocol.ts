import { pathToFileURL } from 'node:url';
import { net, protocol } from 'electron';
import { appFile, APP_HOST, APP_SCHEME } from './app-url';

/** Must run before the app is ready: app:// behaves like https (a real origin, fetch, no mixed content). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves the built renderer at app://hearth/, and nothing outside its folder. */
export function serveRenderer(rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => {
    const file = appFile(rendererDir, request.url);
    return file ? net.fetch(pathToFileURL(file).href) : new Response('Not found', { status: 404 });
  });
}

export const APP_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;
