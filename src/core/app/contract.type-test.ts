// A type-level test: `npm run typecheck` (part of `npm run build`, so of
// `npm test`) compiles this file; nothing runs it. It fails to compile if the
// table stops being checked, i.e. if a method could lack a handler unnoticed.
import type { Handlers } from '../method';
import { handlers } from './handlers';

// The real table is complete.
handlers satisfies Handlers;

// A table that lacks one method is refused. `@ts-expect-error` itself fails
// the build when the line below compiles, which is what this test guards.
const { 'chat.prompt': _dropped, ...lacking } = handlers;
// @ts-expect-error 'chat.prompt' has no handler
lacking satisfies Handlers;
