import type { z } from 'zod';
import { settingsArgs } from '../settings';
import { appArgs } from './app';
import { chatArgs } from './chat';
import { jobArgs } from './jobs';
import { knowledgeArgs } from './knowledge';
import { mcpArgs } from './mcp';
import { memoryArgs } from './memories';
import { personaArgs } from './personas';
import { recallArgs } from './recall';
import { trashArgs } from './trash';
import { userModelArgs } from './user-model';

// The arguments of every method, as zod schemas (docs/contract.md): the method
// list, the argument types (ArgsOf, src/shared/methods.ts) and the core's
// validation (src/core/app/handlers.ts) all come from this one map.

export const METHOD_ARGS = {
  ...appArgs,
  ...personaArgs,
  ...memoryArgs,
  ...userModelArgs,
  ...knowledgeArgs,
  ...trashArgs,
  ...recallArgs,
  ...jobArgs,
  ...settingsArgs,
  ...chatArgs,
  ...mcpArgs,
};

export type Method = keyof typeof METHOD_ARGS;
/** A method's arguments as a caller writes them (defaults still optional). */
export type ArgsOf<M extends Method> = z.input<(typeof METHOD_ARGS)[M]>;
/** A method's arguments once checked (defaults filled in, text trimmed). */
export type ParsedArgsOf<M extends Method> = z.output<(typeof METHOD_ARGS)[M]>;
