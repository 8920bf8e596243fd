import type { Method } from '../../shared/api';
import type { Handlers } from '../method';
import { infoHandlers } from '../info/handlers';
import { chatHandlers } from '../chat/handlers';
import { conversationHandlers } from '../conversations/handlers';
import { embeddingHandlers } from '../embeddings/handlers';
import { jobHandlers } from '../jobs-api/handlers';
import { ingestHandlers } from '../knowledge/ingest-handlers';
import { knowledgeStoreHandlers } from '../knowledge/handlers';
import { memoryHandlers } from '../memories/handlers';
import { personaHandlers } from '../personas/handlers';
import { recallHandlers } from '../recall/handlers';
import { settingsHandlers } from '../settings/handlers';
import { userModelHandlers } from '../user-model/handlers';
import { mcpHandlers } from '../mcp/handlers';
import { portableHandlers } from '../portable/handlers';
import { backupHandlers } from '../backups/handlers';
import { historyHandlers } from '../user-model/history-handlers';
import { serverSwitchHandlers } from '../server-switch/handlers';
import { trashHandlers } from '../trash/handlers';
import { supersedeAgainIn } from '../memories/relink';
import { privacyHandlers } from '../privacy/handlers';
import { watchHandlers } from '../knowledge/watch/handlers';

/**
 * Every method of the contract (src/shared/methods.ts) and the handler that
 * serves it: each domain exports its map, this table merges them. `satisfies`
 * makes a method without a handler, or a handler that does not fit its
 * method's arguments and result, a compile error.
 */
export const handlers = {
  ...infoHandlers,
  ...chatHandlers,
  ...conversationHandlers,
  ...personaHandlers,
  ...memoryHandlers,
  ...jobHandlers,
  ...embeddingHandlers,
  ...settingsHandlers,
  ...ingestHandlers,
  ...userModelHandlers,
  ...knowledgeStoreHandlers,
  ...recallHandlers,
  ...mcpHandlers,
  ...portableHandlers,
  ...serverSwitchHandlers,
  ...backupHandlers,
  ...historyHandlers,
  ...trashHandlers(supersedeAgainIn),
  ...privacyHandlers,
  ...watchHandlers,
} satisfies Handlers;

/** Keys outside the contract (spreads escape excess-property checks): dispatch would serve them untyped. */
export type MethodsOutsideContract = Exclude<keyof typeof handlers, Method>;
true satisfies [MethodsOutsideContract] extends [never] ? true : never;
