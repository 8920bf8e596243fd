// A persona still being imported is hidden (personas.importing, migration
// 0017) until its last row is in. If the import fails it is removed at once;
// if the app stopped mid-import, at the next start. Either way in short
// statements, so removing a big partial import does not hold up other calls.
// Like deletePersona (delete.ts), removing a persona is the personas store's
// act: it takes every row the persona holds, in whichever table.
import type { Queryable } from '../db/client';

const PAGE = 1_000;

/** Deletes `table`'s rows of the persona a page at a time, then returns. */
async function deleteInPages(q: Queryable, sql: string, persona: string): Promise<void> {
  for (;;) {
    const { affectedRows } = await q.query(sql, [persona, PAGE]);
    if (affectedRows < PAGE) return;
  }
}

/** Removes a hidden (importing) persona and all it holds. A visible persona is never touched. */
export async function removeImportingPersona(q: Queryable, id: string): Promise<void> {
  const { rows } = await q.query('SELECT 1 FROM personas WHERE id = $1 AND importing', [id]);
  if (!rows.length) return;
  // Children first, each in pages (the cascade would do it all in one statement).
  await deleteInPages(q, 'DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE persona = $1 LIMIT $2)', id);
  await deleteInPages(
    q,
    `DELETE FROM messages WHERE id IN (
       SELECT x.id FROM messages x JOIN conversations c ON c.id = x.conversation_id WHERE c.persona = $1 LIMIT $2)`,
    id,
  );
  await deleteInPages(q, 'DELETE FROM memory_versions WHERE id IN (SELECT id FROM memory_versions WHERE persona = $1 LIMIT $2)', id);
  await deleteInPages(q, 'DELETE FROM user_model_versions WHERE id IN (SELECT id FROM user_model_versions WHERE persona = $1 LIMIT $2)', id);
  await deleteInPages(q, 'DELETE FROM memories WHERE id IN (SELECT id FROM memories WHERE persona = $1 LIMIT $2)', id);
  await deleteInPages(q, 'DELETE FROM knowledge_chunks WHERE id IN (SELECT id FROM knowledge_chunks WHERE persona = $1 LIMIT $2)', id);
  // What is left is small (conversations, user model, sources): the cascade takes it.
  await q.query('DELETE FROM personas WHERE id = $1 AND importing', [id]);
}

/** At start: personas left hidden by an import the app did not finish. Returns their ids. */
export async function removeUnfinishedImports(q: Queryable): Promise<string[]> {
  const { rows } = await q.query<{ id: string }>('SELECT id FROM personas WHERE importing ORDER BY id');
  for (const r of rows) await removeImportingPersona(q, r.id);
  return rows.map((r) => r.id);
}
