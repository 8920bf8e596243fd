import type { Persona } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { Queryable } from '../db/client';
import type { PersonaPrivacy } from '../providers/locality';
import { toIso } from '../time';

const SELECT = `
  SELECT p.id, p.name, p.avatar, p.created_at, p.local_only, p.mcp,
    (SELECT count(*) FROM memories m WHERE m.persona = p.id) AS memories,
    (SELECT count(*) FROM user_models u WHERE u.persona = p.id) AS user_model,
    (SELECT count(*) FROM knowledge_sources s WHERE s.persona = p.id) AS knowledge_sources,
    (SELECT count(*) FROM knowledge_chunks k WHERE k.persona = p.id) AS knowledge_chunks,
    (SELECT count(*) FROM messages x JOIN conversations c ON c.id = x.conversation_id WHERE c.persona = p.id) AS messages
  FROM personas p
  WHERE NOT p.importing`;

interface Row {
  id: string;
  name: string;
  avatar: string | null;
  created_at: Date;
  local_only: boolean;
  mcp: boolean;
  memories: number;
  user_model: number;
  knowledge_sources: number;
  knowledge_chunks: number;
  messages: number;
}

function toPersona(r: Row): Persona {
  return {
    id: r.id,
    name: r.name,
    avatar: r.avatar,
    createdAt: toIso(r.created_at),
    counts: {
      memories: Number(r.memories),
      userModel: Number(r.user_model),
      knowledgeSources: Number(r.knowledge_sources),
      knowledgeChunks: Number(r.knowledge_chunks),
      messages: Number(r.messages),
    },
    localOnly: r.local_only,
    mcp: r.mcp,
  };
}

export async function listPersonas(db: Queryable): Promise<Persona[]> {
  const { rows } = await db.query<Row>(`${SELECT} ORDER BY (p.id = 'main') DESC, p.created_at, p.id`);
  return rows.map(toPersona);
}

export async function getPersona(db: Queryable, id: string): Promise<Persona> {
  const { rows } = await db.query<Row>(`${SELECT} AND p.id = $1`, [id]);
  if (!rows[0]) throw new AppError('not_found', `There is no persona "${id}".`);
  return toPersona(rows[0]);
}

/**
 * The persona without counting its rows, `counts` given by a caller that knows
 * them (an import that has just written them): each count reads every row of
 * the persona, most of a second at 50k memories, with every other call waiting
 * (docs/export.md, "Other calls go on").
 */
export async function personaWithCounts(db: Queryable, id: string, counts: Persona['counts']): Promise<Persona> {
  const { rows } = await db.query<Row>(
    `SELECT id, name, avatar, created_at, local_only, mcp, 0 AS memories, 0 AS user_model, 0 AS knowledge_sources, 0 AS knowledge_chunks, 0 AS messages
     FROM personas WHERE id = $1 AND NOT importing`,
    [id],
  );
  if (!rows[0]) throw new AppError('not_found', `There is no persona "${id}".`);
  return { ...toPersona(rows[0]), counts };
}

/**
 * Fails with not_found unless the persona exists: every persona-scoped write
 * checks first. A persona still being imported does not exist yet (docs/export.md).
 */
export async function requirePersona(db: Queryable, id: string): Promise<void> {
  const { rows } = await db.query('SELECT 1 FROM personas WHERE id = $1 AND NOT importing', [id]);
  if (!rows.length) throw new AppError('not_found', `There is no persona "${id}".`);
}

/** A stable id from a display name: "Day Trader" → "day-trader". */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48);
  return slug || 'persona';
}

export async function createPersona(db: Queryable, name: string, avatar: string | null = null): Promise<Persona> {
  // A persona being imported holds a placeholder name until it appears, so it never clashes here.
  const { rows: clash } = await db.query('SELECT 1 FROM personas WHERE lower(name) = lower($1)', [name]);
  if (clash.length) throw new AppError('conflict', `A persona named "${name}" already exists.`);
  const base = slugify(name);
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM personas WHERE id = $1 OR id LIKE $1 || '-%'`,
    [base],
  );
  const taken = new Set(rows.map((r) => r.id));
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  await db.query('INSERT INTO personas (id, name, avatar) VALUES ($1, $2, $3)', [id, name, avatar]);
  return getPersona(db, id);
}

/** Renames; `avatar` undefined keeps the current one, null goes back to the name's first character. */
export async function renamePersona(db: Queryable, id: string, name: string, avatar?: string | null): Promise<Persona> {
  const { rows: clash } = await db.query('SELECT 1 FROM personas WHERE lower(name) = lower($1) AND id <> $2', [name, id]);
  if (clash.length) throw new AppError('conflict', `A persona named "${name}" already exists.`);
  const { affectedRows } =
    avatar === undefined
      ? await db.query('UPDATE personas SET name = $2 WHERE id = $1', [id, name])
      : await db.query('UPDATE personas SET name = $2, avatar = $3 WHERE id = $1', [id, name, avatar]);
  if (!affectedRows) throw new AppError('not_found', `There is no persona "${id}".`);
  return getPersona(db, id);
}

/** Sets the persona's privacy switches; a field left out keeps its value. */
export async function updatePersonaPrivacy(db: Queryable, id: string, change: { localOnly?: boolean; mcp?: boolean }): Promise<Persona> {
  const { affectedRows } = await db.query(
    'UPDATE personas SET local_only = coalesce($2, local_only), mcp = coalesce($3, mcp) WHERE id = $1 AND NOT importing',
    [id, change.localOnly ?? null, change.mcp ?? null],
  );
  if (!affectedRows) throw new AppError('not_found', `There is no persona "${id}".`);
  return getPersona(db, id);
}

/**
 * What a provider call needs to know of the persona whose content it carries
 * (src/core/providers/locality.ts). A persona that does not exist is treated as
 * local-only: a call for it is refused rather than sent.
 */
export async function personaPrivacy(db: Queryable, id: string): Promise<PersonaPrivacy> {
  const { rows } = await db.query<{ name: string; local_only: boolean }>('SELECT name, local_only FROM personas WHERE id = $1', [id]);
  return { id, name: rows[0]?.name ?? id, localOnly: rows[0]?.local_only ?? true };
}

/** A data folder copied from the pre-built template: its first persona is made now, not when the template was. */
export async function stampMainCreatedNow(db: Queryable): Promise<void> {
  await db.query(`UPDATE personas SET created_at = now() WHERE id = 'main'`);
}
