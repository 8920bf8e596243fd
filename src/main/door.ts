import { guardPagePaths } from '../core';
import type { CallMeta } from '../shared/actor';
import type { Envelope } from '../shared/api';
import type { GrantedPaths } from './granted-paths';

export type Dispatch = (method: string, args: unknown, meta?: CallMeta) => Promise<Envelope<unknown>>;

/**
 * What the window's calls go through: a file path is passed on only when the
 * user dropped or picked that file in this session; anything else is refused
 * before the disk is touched (so the answer says nothing about what exists).
 */
export function pageDoor(dispatch: Dispatch, grants: GrantedPaths): (method: string, args: unknown) => Promise<Envelope<unknown>> {
  // The window is the user's own app: its calls are the user's.
  return async (method, args) =>
    guardPagePaths(method, args, (path) => grants.has(path), false) ?? dispatch(method, args, { actor: 'user' });
}
