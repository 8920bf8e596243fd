import type { Memory, MemoryFilters, MemoryOrigin, MemoryPage } from '../../shared/api';
import { AppError } from '../../shared/errors';
import type { Queryable } from '../db/client';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './row';

export interface NewMemory {
  persona: string;
  content: string;
  category: string | null;
  importance: number;
  day: string;
  origin: MemoryOrigin;
  conversationId?: string | null;
  /** When it happened; defaults to the database clock. */
  insertedAt?: Date | null;
}

export async function insertMemory(db: Queryable, m: NewMemory, model: string): Promise<Memory> {
  const { rows } = await db.query<MemoryRow>(
    `INSERT INTO memories AS m (persona, content, category, importance, day, origin, conversation_id, inserted_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8, now()), coalesce($8, now()))
     RETURNING ${MEMORY_COLUMNS}`,
    [m.persona, m.content, m.category, m.importance, m.day, m.origin, m.conversationId ?? null, m.insertedAt ?? null],
  );
  return toMemory(rows[0]!, model);
}

export async function getMemory(db: Queryable, id: string, model: string): Promise<Memory> {
  const { rows } = await db.query<MemoryRow>(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = $1`, [id]);
  if (!rows[0]) throw new AppError('not_found', `There is no memory ${id}.`);
  return toMemory(rows[0], model);
}

interface Cursor {
  day: string;
  at: string;
  id: string;
}

function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

function decodeCursor(s: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.day === 'string' && typeof c.at === 'string' && typeof c.id === 'string') return c;
  } catch {
    // fall through to the clear error below
  }
  throw new AppError('invalid_args', 'The page cursor is not valid; start from the first page.');
}

function filterSql(persona: string, f: MemoryFilters): { where: string; params: unknown[] } {
  const params: unknown[] = [persona];
  const clauses = ['m.persona = $1'];
  const add = (sql: string, v: unknown) => {
    params.push(v);
    clauses.push(sql.replace('?', `$${params.length}`));
  };
  if (f.category !== undefined) add('m.category = ?', f.category);
  if (f.importanceMin !== undefined) add('m.importance >= ?', f.importanceMin);
  if (f.importanceMax !== undefined) add('m.importance <= ?', f.importanceMax);
  if (f.dayFrom !== undefined) add('m.day >= ?::date', f.dayFrom);
  if (f.dayTo !== undefined) add('m.day <= ?::date', f.dayTo);
  if (f.origin !== undefined) add('m.origin = ?', f.origin);
  return { where: clauses.join(' AND '), params };
}

/** Newest first (by day, then insertion), keyset-paged so deep pages stay fast at 100k rows. */
export async function listMemories(
  db: Queryable,
  persona: string,
  filters: MemoryFilters,
  limit: number,
  cursor: string | null,
  model: string,
): Promise<MemoryPage> {
  const { where, params } = filterSql(persona, filters);
  const { rows: countRows } = await db.query<{ n: number }>(`SELECT count(*) AS n FROM memories m WHERE ${where}`, params);
  const pageParams = [...params];
  let pageWhere = where;
  if (cursor) {
    const c = decodeCursor(cursor);
    pageParams.push(c.day, c.at, c.id);
    const n = pageParams.length;
    pageWhere += ` AND (m.day, m.inserted_at, m.id) < ($${n - 2}::date, $${n - 1}::timestamptz, $${n}::uuid)`;
  }
  pageParams.push(limit + 1);
  const { rows } = await db.query<MemoryRow & { at: string }>(
    `SELECT ${MEMORY_COLUMNS}, m.inserted_at::text AS at FROM memories m
     WHERE ${pageWhere}
     ORDER BY m.day DESC, m.inserted_at DESC, m.id DESC
     LIMIT $${pageParams.length}`,
    pageParams,
  );
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    items: page.map((r) => toMemory(r, model)),
    total: Number(countRows[0]?.n ?? 0),
    nextCursor: more && last ? encodeCursor({ day: last.day, at: last.at, id: last.id }) : null,
  };
}
