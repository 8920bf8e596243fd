import type { EventName, Events } from '../../shared/api';
import type { PreloadBridge } from '../../shared/bridge';
import type { Transport } from './transport';

/** Electron: the preload bridge forwards to the one `hearth:invoke` channel. */
export function createIpcTransport(bridge: PreloadBridge): Transport {
  return {
    invoke: (method, args) => bridge.invoke(method, args),
    subscribe(listener) {
      return bridge.subscribe((name, payload) => listener(name as EventName, payload as Events[EventName]));
    },
  };
}
