import { z } from 'zod';
import { isActor, type Actor } from '../../actor';

// Building blocks of the result schemas. Results are checked by the types they
// give (src/shared/types.ts), not parsed at run time: these schemas state each
// shape once, with its description, for the types and any JSON schema generated
// from them. Objects are strict: a result has exactly the fields its type names
// (src/core/app/results.test.ts holds a real core's answers to that).

/** YYYY-MM-DD: a local calendar day. */
export const day = z.string();
/** A full ISO timestamp. */
export const time = z.string();

/** Who made a change (src/shared/actor.ts). */
export const actor = z.custom<Actor>(isActor, 'not a valid actor');

/** A count of what a persona holds, by kind. */
export const count = z.number().int().min(0);
