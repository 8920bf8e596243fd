import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventBus } from '../core';

/**
 * Pushes every core event to each connected page as {name, payload}. The
 * caller authenticates the upgrade request first (browsers cannot set headers
 * on a WebSocket, so the token comes as ?token=).
 */
export function createEventsSocket(events: EventBus) {
  // Pages only listen: anything they send is ignored, so keep frames tiny.
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 });

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

  return {
    accept(req: IncomingMessage, socket: Duplex, head: Buffer): void {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    close(): Promise<void> {
      for (const ws of wss.clients) ws.close(1001, 'host shutting down');
      return new Promise((resolve) => wss.close(() => resolve()));
    },
  };
}
