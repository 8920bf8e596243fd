// The one API contract. Every door (Electron IPC, the browser host, scripts)
// serves exactly these methods and events; the core validates the arguments.
// This file only gathers the contract's parts, so one import reaches all of it:
//   enums.ts    closed name sets (queues, states, variants…) as values + types
//   types.ts    the data methods take and return (settings.ts: the settings' shapes)
//   methods.ts  the method map: name → [arguments, result]
//   events.ts   events pushed to the UI
//   recall-match.ts  what counts as a search match (the core's count and the page agree)
//   errors.ts   error codes, AppError, the envelope every call returns
//   actor.ts    who made a call (the door decides)
//   bridge.ts   what the Electron preload exposes to the page

export * from './enums';
export * from './types';
export * from './settings';
export * from './methods';
export * from './events';
export * from './recall-match';
export type { AppErrorShape, Envelope, ErrorCode } from './errors';
export type { Actor, CallMeta } from './actor';
export type { PreloadBridge } from './bridge';
