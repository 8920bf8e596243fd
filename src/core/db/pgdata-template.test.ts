import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore } from '../index';
import { entriesOpenToOthers } from '../testing/open-entries';
import type { Queryable } from './client';
import { buildAppTemplate, templateKey } from './pgdata-template';

// A first launch copies a migrated, empty database kept beside the app instead of running initdb and every
// migration (docs/first-launch.md). What it copies must be what initdb and the migrations would have made.
const root = mkdtempSync(join(tmpdir(), 'hearth-pgdata-template-'));
let template: string;
let madeAt: Date;
/** Each initdb makes its own cluster identifier: a copy keeps the template's. */
let templateId: string;
const clusterId = async (q: Queryable) => (await q.query<{ id: string }>(`SELECT system_identifier::text AS id FROM pg_control_system()`)).rows[0]!.id;

beforeAll(async () => {
  // As a build makes it: the template's files keep whatever modes they were made with; the copy is made private.
  template = await buildAppTemplate(async (dataDir) => {
    const core = await createCore({ dataDir, dailyBackups: false });
    templateId = await clusterId(core.ctx.db);
    await core.close();
  }, join(root, 'templates'));
  madeAt = new Date();
  chmodSync(join(template, 'pgdata', 'PG_VERSION'), 0o644);
}, 180_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Migrations, extensions, columns, indexes, constraints, triggers and functions: the schema as a list of lines. */
async function schema(q: Queryable): Promise<string[]> {
  const lines = async (sql: string) => (await q.query<{ l: string }>(sql)).rows.map((r) => r.l);
  return [
    ...(await lines(`SELECT name || ' ' || checksum AS l FROM schema_migrations ORDER BY name`)),
    ...(await lines(`SELECT extname || ' ' || extversion AS l FROM pg_extension ORDER BY 1`)),
    ...(await lines(`SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS l
                     FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, ordinal_position`)),
    ...(await lines(`SELECT indexdef AS l FROM pg_indexes WHERE schemaname = 'public' ORDER BY indexname`)),
    ...(await lines(`SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS l FROM pg_constraint
                     WHERE connamespace = 'public'::regnamespace ORDER BY 1`)),
    ...(await lines(`SELECT tgrelid::regclass || ' ' || pg_get_triggerdef(oid) AS l FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`)),
    ...(await lines(`SELECT proname || ' ' || md5(prosrc) AS l FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`)),
  ];
}

describe('a new data folder started from the template', () => {
  it('has the migrations and schema a fresh initdb and the migrations give, private files, and its own first persona', async () => {
    const seeded = join(root, 'seeded');
    const fresh = join(root, 'fresh');
    const a = await createCore({ dataDir: seeded, dailyBackups: false, pgdataTemplate: template });
    const b = await createCore({ dataDir: fresh, dailyBackups: false });
    try {
      expect(await clusterId(a.ctx.db)).toBe(templateId);
      expect(await clusterId(b.ctx.db)).not.toBe(templateId);
      const [sa, sb] = [await schema(a.ctx.db), await schema(b.ctx.db)];
      expect(sa.filter((l) => l.startsWith('0025_'))).toHaveLength(1);
      expect(sa).toEqual(sb);
      const { rows } = await a.ctx.db.query<{ created_at: Date }>(`SELECT created_at FROM personas WHERE id = 'main'`);
      expect(rows[0]!.created_at.getTime()).toBeGreaterThanOrEqual(madeAt.getTime());
      await a.call('memories.write', { persona: 'main', content: 'The seeded folder takes writes' });
    } finally {
      await a.close();
      await b.close();
    }
    expect(entriesOpenToOthers(seeded)).toEqual([]);
    expect(readdirSync(seeded)).not.toContain('pgdata.from-template');
    // Reopened, it is an existing folder like any other.
    const again = await createCore({ dataDir: seeded, dailyBackups: false, pgdataTemplate: template });
    try {
      expect((await again.call('memories.list', { persona: 'main' })).items.map((m) => m.content)).toEqual(['The seeded folder takes writes']);
    } finally {
      await again.close();
    }
  }, 240_000);

  it('makes a copy cut short again, and never fills a damaged folder', async () => {
    const cut = join(root, 'cut');
    mkdirSync(join(cut, 'pgdata.from-template', 'base'), { recursive: true });
    writeFileSync(join(cut, 'pgdata.from-template', 'PG_VERSION'), '17\n');
    const core = await createCore({ dataDir: cut, dailyBackups: false, pgdataTemplate: template });
    await core.close();
    expect(readdirSync(cut)).not.toContain('pgdata.from-template');

    const damaged = join(root, 'damaged');
    mkdirSync(join(damaged, 'pgdata', 'base'), { recursive: true });
    writeFileSync(join(damaged, 'pgdata', 'postgresql.conf'), '# left from a database that lost its PG_VERSION\n');
    await expect(createCore({ dataDir: damaged, dailyBackups: false, pgdataTemplate: template })).rejects.toMatchObject({ code: 'data_damaged' });
    expect(readdirSync(join(damaged, 'pgdata')).sort()).toEqual(['base', 'postgresql.conf']);
    expect(existsSync(join(damaged, 'pgdata', 'PG_VERSION'))).toBe(false);
  }, 120_000);

  it('is named for the migrations and engine it was made with', () => {
    expect(template.endsWith(templateKey())).toBe(true);
  });
});
