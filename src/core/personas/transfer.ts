// The personas table's side of a persona file (docs/export.md): the persona
// row an export reads, and the hidden persona an import writes into and
// reveals once its last line is in (migration 0017).
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from '../db/client';
import { ts } from '../db/bulk-rows';
import { slugify } from './store';

/** A persona as a persona file holds it. */
export interface PersonaRow {
  id: string;
  name: string;
  avatar: string | null;
  createdAt: string;
  localOnly: boolean;
  mcp: boolean;
}

export async function exportPersonaRow(q: Queryable, id: string): Promise<PersonaRow> {
  const { rows } = await q.query<{ id: string; name: string; avatar: string | null; created_at: string; local_only: boolean; mcp: boolean }>(
    `SELECT id, name, avatar, ${ts('created_at')} AS created_at, local_only, mcp FROM personas WHERE id = $1`,
    [id],
  );
  const p = rows[0]!;
  return { id: p.id, name: p.name, avatar: p.avatar, createdAt: p.created_at, localOnly: p.local_only, mcp: p.mcp };
}

/** A persona id not taken (hidden imports included): the wanted one when free, else `<id>-2`… */
async function freeId(q: Queryable, wantedId: string, name: string): Promise<string> {
  const { rows } = await q.query<{ id: string }>('SELECT id FROM personas');
  const ids = new Set(rows.map((r) => r.id));
  let id = /^[a-z0-9][a-z0-9_-]{0,63}$/.test(wantedId) ? wantedId : slugify(name);
  const base = id.slice(0, 48);
  for (let k = 2; ids.has(id); k++) id = `${base}-${k}`;
  return id;
}

/** The name, or with " (2)", " (3)"… when a visible persona has it (or `taken` holds it, lower-cased). */
async function freeName(q: Queryable, name: string, taken: ReadonlySet<string> = new Set()): Promise<string> {
  const { rows } = await q.query<{ name: string }>('SELECT lower(name) AS name FROM personas WHERE NOT importing');
  const names = new Set([...rows.map((r) => r.name), ...taken]);
  let finalName = name;
  for (let k = 2; names.has(finalName.toLowerCase()); k++) finalName = `${name} (${k})`;
  return finalName;
}

/**
 * A new persona, hidden and under a placeholder name until revealPersona, so
 * nobody sees it half-written. Returns its id: the file's when free.
 */
export async function insertHiddenPersona(db: Db, p: Omit<PersonaRow, 'avatar' | 'localOnly' | 'mcp'> & Partial<PersonaRow>): Promise<string> {
  return db.transaction(async (tx) => {
    const free = await freeId(tx, p.id, p.name);
    await tx.query('INSERT INTO personas (id, name, avatar, created_at, importing, local_only, mcp) VALUES ($1, $2, $3, $4::timestamptz, true, $5, $6)', [
      free,
      `importing ${randomUUID()}`,
      p.avatar ?? null,
      p.createdAt,
      p.localOnly ?? false,
      p.mcp ?? true,
    ]);
    return free;
  });
}

/**
 * Shows a hidden persona under `name`, or a suffixed one when a visible
 * persona has it: one short transaction, so a persona created meanwhile
 * cannot take the name between the choice and the reveal.
 */
export async function revealPersona(db: Db, id: string, name: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('UPDATE personas SET name = $2, importing = false WHERE id = $1', [id, await freeName(tx, name)]);
  });
}

/**
 * Shows a persona copied into a server (hidden until every persona is in)
 * under its name or a free variant not in `taken`, inside the caller's
 * transaction. Returns the name, or null when it is no longer hidden: another
 * Hearth starting on the server removed it as an unfinished import.
 */
export async function revealCopiedPersona(tx: Queryable, id: string, name: string, taken: ReadonlySet<string>): Promise<string | null> {
  const free = await freeName(tx, name, taken);
  const { affectedRows } = await tx.query('UPDATE personas SET name = $2, importing = false WHERE id = $1 AND importing', [id, free]);
  return affectedRows === 1 ? free : null;
}

/** Hides a persona again (personas.importing), so removeImportingPersona (hidden.ts) may take it. */
export async function hidePersona(q: Queryable, id: string): Promise<void> {
  await q.query('UPDATE personas SET importing = true WHERE id = $1', [id]);
}

/**
 * "main" always exists (it cannot be deleted). A copy into a fresh server
 * replaces that server's empty one with this computer's (dropEmptyMain); if
 * the copy is cut off before it could put the empty one back, the next start does.
 */
export async function ensureMainPersona(q: Queryable): Promise<void> {
  await q.query(`INSERT INTO personas (id, name) VALUES ('main', 'main') ON CONFLICT (id) DO NOTHING`);
}

/** Removes the empty "main" a fresh database starts with, to make way for a copied one of the same id. */
export async function dropEmptyMain(q: Queryable): Promise<void> {
  await q.query(`DELETE FROM personas WHERE id = 'main'`);
}
