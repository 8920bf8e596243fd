// Parts of a migration that need an extension the database may lack
// (docs/server-mode.md). PGlite has every extension and runs each file as it
// is; on a PostgreSQL server without pgvector or pg_textsearch the runner
// leaves those parts out. Two markers, both SQL comments:
//
//   -- hearth:if vector          lines up to `-- hearth:end` run only where
//   ...                          the feature exists (vector | bm25)
//   -- hearth:end
//
//   -- hearth:unless bm25        the opposite: lines up to `-- hearth:end` run
//   ...                          only where the feature is missing (what a
//   -- hearth:end                database without it must do for itself)
//
//   <sql> -- hearth:without vector: <replacement>
//                                a line whose text is replaced where the
//                                feature is missing (e.g. a vector column
//                                kept as bytea, so queries naming it still run)
//
// A file's checksum is taken with the markers removed, so adding markers to a
// migration that already ran keeps the checksum its databases recorded.
import { AppError } from '../../shared/errors';
import type { DbFeatures } from './features';

const BLOCK_START = /^-- hearth:(if|unless) (\w+)[ \t]*$/;
const BLOCK_END = /^-- hearth:end[ \t]*$/;
const WITHOUT = / -- hearth:without (\w+): (.*)$/;

function feature(name: string, file: string): keyof DbFeatures {
  if (name === 'vector' || name === 'bm25') return name;
  throw new AppError('migration_failed', `Migration ${file} names an unknown feature "${name}" (vector or bm25).`);
}

/** The file as it was before markers were added: what its checksum is taken over. */
export function withoutMarkers(sql: string): string {
  return sql
    .split('\n')
    .filter((line) => !BLOCK_START.test(line) && !BLOCK_END.test(line))
    .map((line) => line.replace(WITHOUT, ''))
    .join('\n');
}

/** The SQL to run on a database with these features. */
export function sqlForFeatures(sql: string, features: DbFeatures, file = 'migration'): string {
  const out: string[] = [];
  let skipping: boolean | null = null;
  for (const line of sql.split('\n')) {
    const start = BLOCK_START.exec(line);
    if (start) {
      if (skipping !== null) throw new AppError('migration_failed', `Migration ${file}: hearth:if blocks cannot nest.`);
      const has = features[feature(start[2]!, file)];
      skipping = start[1] === 'if' ? !has : has;
      continue;
    }
    if (BLOCK_END.test(line)) {
      if (skipping === null) throw new AppError('migration_failed', `Migration ${file}: hearth:end without hearth:if.`);
      skipping = null;
      continue;
    }
    if (skipping) continue;
    const without = WITHOUT.exec(line);
    if (without) {
      const indent = /^\s*/.exec(line)![0];
      out.push(features[feature(without[1]!, file)] ? line.replace(WITHOUT, '') : indent + without[2]!.trim());
      continue;
    }
    out.push(line);
  }
  if (skipping !== null) throw new AppError('migration_failed', `Migration ${file}: hearth:if without hearth:end.`);
  return out.join('\n');
}
