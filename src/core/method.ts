import type { z } from 'zod';
import type { Actor } from '../shared/actor';
import type { ArgsOf, Method, ResultOf } from '../shared/api';
import type { CoreContext } from './context';

/** What a handler knows about the call besides its arguments: who made it (the door decides). */
export interface Call {
  actor: Actor;
}

/** One API method: its argument schema and what it does. */
export interface HandlerDef<M extends Method> {
  // The schema's input must fit the contract's argument type for this method.
  schema: z.ZodType<unknown, ArgsOf<M>>;
  run(args: never, ctx: CoreContext, call: Call): Promise<ResultOf<M>>;
  /**
   * Set for methods that store none of the text they receive (recall): a NUL
   * there is read as a space instead of refused, since nothing is stored and
   * a search box should never answer "invalid" to what was pasted into it.
   */
  readsTextOnly?: true;
}

/** The handler table: exactly one definition per method of the contract (src/core/app/handlers.ts). */
export type Handlers = { [M in Method]: HandlerDef<M> };

/** Defines one method's handler; `run` gets the arguments as the schema parsed them. */
export function handler<S extends z.ZodType, R>(
  schema: S,
  run: (args: z.output<S>, ctx: CoreContext, call: Call) => Promise<R>,
  options: { readsTextOnly?: true } = {},
): { schema: S; run: (args: z.output<S>, ctx: CoreContext, call: Call) => Promise<R>; readsTextOnly?: true } {
  return { schema, run, ...options };
}
