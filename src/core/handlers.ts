import { z } from 'zod';
import { METHODS, type Method } from '../shared/api';
import { AppError } from '../shared/errors';
import type { HandlerDef, Handlers } from './handler';
import { memoryHandlers } from './memories/handlers';
import { personaHandlers } from './personas/handlers';
import { appHandlers } from './app-handlers';
import { chatHandlers } from './chat/handlers';
import { jobHandlers } from './jobs/handlers';
import { embeddingHandlers } from './embeddings/handlers';
import { settingsHandlers } from './settings/handlers';
import { ingestHandlers } from './knowledge/ingest-handlers';
import { userModelHandlers } from './user-model/handlers';
import { knowledgeStoreHandlers } from './knowledge/handlers';
import { recallHandlers } from './recall/handlers';

// Every domain contributes its handler map here; the type of `Handlers`
// makes sure each method of the contract has exactly one implementation.
const implemented = {
  ...appHandlers,
  ...chatHandlers,
  ...personaHandlers,
  ...memoryHandlers,
  ...jobHandlers,
  ...embeddingHandlers,
  ...settingsHandlers,
  ...ingestHandlers,
  ...userModelHandlers,
  ...knowledgeStoreHandlers,
  ...recallHandlers,
};

function notImplemented<M extends Method>(method: M): HandlerDef<M> {
  return {
    schema: z.any(),
    run: async () => {
      throw new AppError('not_implemented', `${method} is not available in this version of Hearth yet.`);
    },
  };
}

export function buildHandlers(): Handlers {
  const table = {} as Record<Method, HandlerDef<Method>>;
  for (const m of METHODS) {
    table[m] = ((implemented as Partial<Record<Method, HandlerDef<Method>>>)[m] ?? notImplemented(m)) as HandlerDef<Method>;
  }
  return table as Handlers;
}

// Compile-time check that each implemented handler fits the contract.
export const _contractCheck: Partial<Handlers> = implemented;
