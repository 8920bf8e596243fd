import type { ArgsOf, EventName, Events, Method, ResultOf } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { Transport } from './transport';

/** The typed client every store uses: failures come back as AppError. */
export interface ApiClient {
  invoke<M extends Method>(method: M, args: ArgsOf<M>): Promise<ResultOf<M>>;
  on<E extends EventName>(name: E, cb: (payload: Events[E]) => void): () => void;
  /** Fetches a one-time download the browser host offered (personas.export's `url`). */
  download(url: string): Promise<Blob>;
}

/** `onNotes`: what the core changed in an input to store it, for the person to see. */
export function createClient(transport: Transport, onNotes: (notes: string[]) => void = () => undefined): ApiClient {
  const handlers = new Map<EventName, Set<(p: unknown) => void>>();
  transport.subscribe((name, payload) => {
    for (const cb of handlers.get(name) ?? []) cb(payload);
  });
  return {
    async invoke(method, args) {
      const res = await transport.invoke(method, args);
      if (!res.ok) throw AppError.from(res.error);
      if (res.notes?.length) onNotes(res.notes);
      return res.data as ResultOf<typeof method>;
    },
    async download(url) {
      if (!transport.download) throw new AppError('internal', 'This version of Hearth saves files itself.');
      return transport.download(url);
    },
    on(name, cb) {
      let set = handlers.get(name);
      if (!set) handlers.set(name, (set = new Set()));
      set.add(cb as (p: unknown) => void);
      return () => set!.delete(cb as (p: unknown) => void);
    },
  };
}
