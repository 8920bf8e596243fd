import type { McpCall, McpClient } from '../../shared/api';
import { MCP_LOG_KEEP } from '../../shared/contract/limits';
import { AppError } from '../../shared/errors';
import type { Queryable } from '../db/client';
import { toIso } from '../time';

export interface CallRecord {
  client: string;
  tool: string;
  persona: string;
  ok: boolean;
  error: string | null;
  ms: number;
}

/** Notes that a client is calling and answers whether it may (the user can switch a client off). */
export async function touchClient(db: Queryable, name: string, version: string | null, now: Date): Promise<boolean> {
  const { rows } = await db.query<{ enabled: boolean }>(
    `INSERT INTO mcp_clients (name, version, first_seen, last_seen) VALUES ($1, $2, $3, $3)
     ON CONFLICT (name) DO UPDATE SET last_seen = excluded.last_seen, version = coalesce(excluded.version, mcp_clients.version)
     RETURNING enabled`,
    [name, version, now],
  );
  return rows[0]?.enabled ?? false;
}

/** One statement: the line, the trim to the newest MCP_LOG_KEEP, and the client's last call. */
export async function logCall(db: Queryable, c: CallRecord, now: Date): Promise<void> {
  await db.query(
    `WITH ins AS (
       INSERT INTO mcp_calls (client, tool, persona, at, ok, error, ms) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id
     ), trim AS (
       DELETE FROM mcp_calls WHERE id <= (SELECT id FROM ins) - $8
     )
     UPDATE mcp_clients SET calls = calls + 1, last_tool = $2, last_persona = $3, last_ok = $5, last_seen = $4
     WHERE name = $1`,
    [c.client, c.tool.slice(0, 64), c.persona, now, c.ok, c.error?.slice(0, 500) ?? null, Math.round(c.ms), MCP_LOG_KEEP],
  );
}

interface ClientRow {
  name: string;
  version: string | null;
  enabled: boolean;
  first_seen: Date;
  last_seen: Date;
  calls: number | string;
  last_tool: string | null;
  last_persona: string | null;
  last_ok: boolean | null;
}

function toClient(r: ClientRow): McpClient {
  return {
    name: r.name,
    version: r.version,
    enabled: r.enabled,
    firstSeen: toIso(r.first_seen),
    lastSeen: toIso(r.last_seen),
    calls: Number(r.calls),
    lastCall:
      r.last_tool !== null && r.last_persona !== null && r.last_ok !== null
        ? { tool: r.last_tool, persona: r.last_persona, at: toIso(r.last_seen), ok: r.last_ok }
        : null,
  };
}

export async function listClients(db: Queryable): Promise<McpClient[]> {
  const { rows } = await db.query<ClientRow>('SELECT * FROM mcp_clients ORDER BY last_seen DESC, name');
  return rows.map(toClient);
}

export async function setClientEnabled(db: Queryable, name: string, enabled: boolean): Promise<McpClient> {
  const { rows } = await db.query<ClientRow>('UPDATE mcp_clients SET enabled = $2 WHERE name = $1 RETURNING *', [name, enabled]);
  if (!rows[0]) throw new AppError('not_found', `No AI tool named "${name}" has connected to Hearth.`);
  return toClient(rows[0]);
}

interface CallRow {
  id: number | string;
  client: string;
  tool: string;
  persona: string;
  at: Date;
  ok: boolean;
  error: string | null;
  ms: number | null;
}

/** Newest first. */
export async function listCalls(db: Queryable, client: string | null, limit: number): Promise<McpCall[]> {
  const { rows } = await db.query<CallRow>(
    `SELECT * FROM mcp_calls WHERE ($1::text IS NULL OR client = $1) ORDER BY id DESC LIMIT $2`,
    [client, limit],
  );
  return rows.map((r) => ({ id: Number(r.id), client: r.client, tool: r.tool, persona: r.persona, at: toIso(r.at), ok: r.ok, error: r.error, ms: r.ms }));
}
