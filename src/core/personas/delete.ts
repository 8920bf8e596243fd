import type { Persona } from '../../shared/api';
import { confirmsName } from '../../shared/avatar';
import { AppError } from '../../shared/errors';
import type { Db } from '../db/client';
import { getPersona } from './store';

/**
 * Tables holding a persona's data, children before parents. Messages go with
 * their conversation. History goes too: deleting a persona is the one act
 * that removes it (docs/history.md).
 */
const PERSONA_TABLES = ['knowledge_watches', 'jobs', 'trash_items', 'memory_versions', 'user_model_versions', 'memories', 'user_models', 'knowledge_chunks', 'knowledge_sources', 'conversations'] as const;

/**
 * Deletes a persona and everything it holds in one transaction — an explicit
 * user action, confirmed by typing the persona's name (trimmed; a leading emoji
 * may be left out: src/shared/avatar.ts). `main` always
 * exists: it is emptied instead of removed.
 */
export async function deletePersona(db: Db, id: string, confirm: string): Promise<Persona['counts']> {
  return db.transaction(async (tx) => {
    const persona = await getPersona(tx, id);
    if (!confirmsName(persona.name, confirm)) {
      throw new AppError('invalid_args', `To delete "${persona.name}", type its name as confirmation.`);
    }
    if (id === 'main') {
      // Explicit deletes (same order as the cascade) so the row itself stays.
      for (const table of PERSONA_TABLES) await tx.query(`DELETE FROM ${table} WHERE persona = $1`, [id]);
    } else {
      // Every persona-owned table references personas(id) ON DELETE CASCADE.
      await tx.query('DELETE FROM personas WHERE id = $1', [id]);
    }
    return persona.counts;
  });
}
