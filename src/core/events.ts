import type { EventName, Events } from '../shared/api';

/** Where an event comes from: this Hearth, or another one on the same server (docs/server-mode.md, "Live updates"). */
export interface EventMeta {
  remote: boolean;
}

export type EventListener = <E extends EventName>(name: E, payload: Events[E], meta: EventMeta) => void;

const LOCAL: EventMeta = Object.freeze({ remote: false });

/** Pushes core events to every door (IPC, WebSocket, tests). */
export class EventBus {
  private listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(name: E, payload: Events[E], meta: EventMeta = LOCAL): void {
    for (const l of this.listeners) {
      try {
        l(name, payload, meta);
      } catch (e) {
        // A broken subscriber (a closed socket) must not stop the core's work.
        console.error(`event listener failed on ${name}:`, e);
      }
    }
  }
}
