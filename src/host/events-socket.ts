import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, WebSocketServer } from 'ws';
import type { EventBus } from '../core';

/**
 * Pushes every core event to each connected page as {name, payload}. The
 * caller authenticates the upgrade request first (browsers cannot set headers
 * on a WebSocket, so the token comes as ?token=).
 */
export function createEventsSocket(events: EventBus) {
  let server: Promise<WebSocketServer> | null = null;
  // `ws` loads once the host listens (`load`) or at the first page's upgrade, not before the URL is printed (docs/startup.md).
  const load = () =>
    (server ??= import('ws').then(({ WebSocketServer: Server }) => {
      // Pages only listen: anything they send is ignored, so keep frames tiny.
      const wss = new Server({ noServer: true, maxPayload: 1024 });
      wss.on('connection', (ws: WebSocket) => {
        const unsubscribe = events.subscribe((name, payload) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ name, payload }));
        });
        ws.on('close', unsubscribe);
        ws.on('error', (e) => {
          console.error('events socket error:', e.message);
          unsubscribe();
        });
      });
      return wss;
    }));

  return {
    load(): void {
      void load().catch((e: unknown) => console.error('events socket could not start:', e instanceof Error ? e.message : e));
    },
    accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      load().then(
        (wss) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
        () => socket.destroy(),
      );
    },
    async close(): Promise<void> {
      if (!server) return;
      const wss = await server.catch(() => null);
      if (!wss) return;
      for (const ws of wss.clients) ws.close(1001, 'host shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
