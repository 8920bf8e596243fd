import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// Each table is written only by its own domain's store (docs/architecture.md): a write to a table from
// any other folder of src/core fails here, naming the file, the table and the folder that owns it.

const ROOT = resolve(import.meta.dirname, '../..');
const CORE = join(ROOT, 'src/core');

/** Each table and the folder directly under src/core whose files may write it (subfolders included). */
const OWNERS: Record<string, string> = {
  bm25_stats: 'memories', // written only by the triggers of migrations/0019_term_stats.sql
  conversations: 'conversations',
  jobs: 'jobs',
  knowledge_chunks: 'knowledge',
  knowledge_sources: 'knowledge',
  knowledge_watch_files: 'knowledge',
  knowledge_watches: 'knowledge',
  knowledge_windows: 'knowledge',
  mcp_calls: 'mcp',
  mcp_clients: 'mcp',
  memories: 'memories',
  memory_not_duplicates: 'memories',
  memory_versions: 'history',
  messages: 'chat',
  personas: 'personas',
  schema_migrations: 'db', // the migration runner's own ledger (src/core/db/migrate.ts)
  settings: 'settings',
  trash_items: 'trash',
  trash_rows: 'trash',
  user_model_versions: 'history',
  user_models: 'user-model',
};

/**
 * Writes outside the owner, each with the reason it stays: `file -> table` (`*` for a table named at run time).
 * An entry that no longer matches a write fails the test, so the list only shrinks.
 */
const ALLOWED: Record<string, string> = {
  // Removing a persona takes every row it holds, in whichever table (the cascade of its foreign keys, done
  // in pages for a big unfinished import). personas is the lowest domain: it cannot call the stores above it.
  'src/core/personas/hidden.ts -> jobs': 'a persona takes its rows with it',
  'src/core/personas/hidden.ts -> messages': 'a persona takes its rows with it',
  'src/core/personas/hidden.ts -> memory_versions': 'a persona takes its rows with it',
  'src/core/personas/hidden.ts -> user_model_versions': 'a persona takes its rows with it',
  'src/core/personas/hidden.ts -> memories': 'a persona takes its rows with it',
  'src/core/personas/hidden.ts -> knowledge_chunks': 'a persona takes its rows with it',
  // Emptying `main` (which stays) deletes from each persona-owned table by name, as the cascade would.
  'src/core/personas/delete.ts -> *': 'a persona takes its rows with it',
  // The trash keeps deleted rows as JSON and puts them back into the table they came from (docs/trash.md),
  // whichever it is: the row is restored as it was, not written anew by its domain.
  'src/core/trash/rows.ts -> *': 'the trash puts rows back as they were',
  // The embeddings domain owns the vector columns of memories and knowledge chunks (embedding, embedding_model,
  // embedding_error, staged_model) and sits below both domains: it writes those columns and no others.
  'src/core/embeddings/store.ts -> *': 'the vector columns are the embeddings domain\'s',
  'src/core/embeddings/staged.ts -> *': 'the vector columns are the embeddings domain\'s',
  // One statement picks a page of imported rows without a vector and queues their jobs: splitting it into
  // jobs/enqueue.ts would carry every id of the page through a round trip (docs/architecture.md, imported vectors).
  'src/core/embeddings/imported.ts -> jobs': 'a page and its jobs in one statement',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(test|type-test)\.tsx?$/.test(name) ? [path] : [];
  });
}

function migrationTables(): string[] {
  const dir = join(ROOT, 'migrations');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/CREATE\s+(?:UNLOGGED\s+)?TABLE\s+(?:IF NOT EXISTS\s+)?([a-z_][a-z0-9_]*)/gi)])
    .map((m) => m[1]!.toLowerCase());
}

// SQL is written in capitals in this code base; a table named in a template (`${table}`) is reported as `*`.
const WRITE = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM|COPY|TRUNCATE(?:\s+TABLE)?)\s+(?:ONLY\s+)?(?:public\.)?"?(\$\{|[a-z_][a-z0-9_]*)/g;

interface Write {
  file: string;
  table: string;
}

function writes(): Write[] {
  const known = new Set(Object.keys(OWNERS));
  return sourceFiles(CORE).flatMap((path) => {
    const file = relative(ROOT, path);
    return [...readFileSync(path, 'utf8').matchAll(WRITE)]
      .map((m) => (m[1] === '${' ? '*' : m[1]!))
      .filter((table) => table === '*' || known.has(table))
      .map((table) => ({ file, table }));
  });
}

const folderOf = (file: string) => file.slice('src/core/'.length).split('/')[0]!;
const key = (w: Write) => `${w.file} -> ${w.table}`;

describe('table owners (docs/architecture.md)', () => {
  const all = writes();

  it('sees the writes and every table of the migrations has an owner', () => {
    // A broken pattern would make the rule below pass vacuously.
    expect(all).toContainEqual({ file: 'src/core/memories/store.ts', table: 'memories' });
    expect(all).toContainEqual({ file: 'src/core/conversations/store.ts', table: 'conversations' });
    const unowned = [...new Set(migrationTables())].filter((t) => !(t in OWNERS));
    expect(unowned, 'add each new table to OWNERS with the folder whose store writes it').toEqual([]);
  });

  it('each table is written only by its owner', () => {
    const stray = all
      .filter((w) => w.table === '*' || folderOf(w.file) !== OWNERS[w.table])
      .filter((w) => !(key(w) in ALLOWED))
      .map((w) => `${key(w)} (owner: ${w.table === '*' ? 'a table named at run time' : `src/core/${OWNERS[w.table]}/`})`);
    expect([...new Set(stray)]).toEqual([]);
  });

  it('each allowed exception is still needed', () => {
    const found = new Set(all.map(key));
    expect(Object.keys(ALLOWED).filter((k) => !found.has(k))).toEqual([]);
  });
});
