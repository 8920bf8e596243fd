import type { AppErrorShape, Envelope, EventName, Events } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { Transport } from './transport';

type Listener = <E extends EventName>(name: E, payload: Events[E]) => void;

export interface HttpTransportOptions {
  /** Origin of the browser host, e.g. http://127.0.0.1:4123 (default: the page's). */
  origin: string;
  token: string;
}

// Non-envelope HTTP answers (auth, size, routing) become envelopes, so the
// client surfaces them like any other failure.
const HTTP_CODES: Record<number, AppErrorShape> = {
  401: { code: 'unauthorized', message: 'The browser host refused the token. Open the URL the host printed (with ?token=…).' },
  403: { code: 'forbidden', message: 'The browser host refused this origin.' },
  404: { code: 'unknown_method', message: 'The browser host does not know this method.' },
  413: { code: 'too_large', message: 'The request is too large for the browser host.' },
};

async function post(opts: HttpTransportOptions, method: string, args: unknown): Promise<Envelope<unknown>> {
  let res: Response;
  try {
    res = await fetch(`${opts.origin}/api/${encodeURIComponent(method)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${opts.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(args ?? {}),
    });
  } catch (e) {
    return { ok: false, error: { code: 'host_unreachable', message: `Cannot reach the Hearth host: ${(e as Error).message}` } };
  }
  // 200 carries every envelope; a 413 for an upload carries one too, with the limit in its message.
  if (res.status === 200 || res.headers.get('content-type')?.startsWith('application/json')) return (await res.json()) as Envelope<unknown>;
  const known = HTTP_CODES[res.status];
  return { ok: false, error: known ?? { code: 'internal', message: `The host answered HTTP ${res.status}.` } };
}

/** One WebSocket to /events, opened on first subscriber, reconnecting with backoff. */
function createEventSocket(opts: HttpTransportOptions, listeners: Set<Listener>) {
  let socket: WebSocket | null = null;
  let retryMs = 250;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const url = `${opts.origin.replace(/^http/, 'ws')}/events?token=${encodeURIComponent(opts.token)}`;

  function connect(): void {
    timer = null;
    const ws = new WebSocket(url);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(String(ev.data)) as { name: EventName; payload: Events[EventName] };
      for (const l of listeners) l(msg.name, msg.payload);
    };
    ws.onclose = () => {
      socket = null;
      if (listeners.size === 0) return;
      timer = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  }

  return {
    ensure(): void {
      if (!socket && !timer) connect();
    },
    stopIfIdle(): void {
      if (listeners.size > 0) return;
      if (timer) clearTimeout(timer);
      timer = null;
      socket?.close();
      socket = null;
    },
  };
}

/** The browser host: POST /api/<method> with the bearer token; events over WebSocket. */
export function createHttpTransport(opts: HttpTransportOptions): Transport {
  const listeners = new Set<Listener>();
  const events = createEventSocket(opts, listeners);
  return {
    invoke: (method, args) => post(opts, method, args),
    async download(url) {
      const res = await fetch(`${opts.origin}${url}`, { headers: { authorization: `Bearer ${opts.token}` } });
      if (!res.ok) throw new AppError(res.status === 401 ? 'unauthorized' : 'not_found', await res.text());
      return res.blob();
    },
    subscribe(listener) {
      listeners.add(listener);
      events.ensure();
      return () => {
        listeners.delete(listener);
        events.stopIfIdle();
      };
    },
  };
}
