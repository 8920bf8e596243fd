import type { EventName, Events } from '../shared/api';

export type EventListener = <E extends EventName>(name: E, payload: Events[E]) => void;

/** Pushes core events to every door (IPC, WebSocket, tests). */
export class EventBus {
  private listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit<E extends EventName>(name: E, payload: Events[E]): void {
    for (const l of this.listeners) {
      try {
        l(name, payload);
      } catch (e) {
        // A broken subscriber (a closed socket) must not stop the core's work.
        console.error(`event listener failed on ${name}:`, e);
      }
    }
  }
}
