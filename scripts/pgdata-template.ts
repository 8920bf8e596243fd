// Makes out/pgdata-template/<key>/: a migrated, empty database that a first
// launch copies instead of running initdb (src/core/db/pgdata-template.ts).
// Run by scripts/build-if-needed.mjs when migrations or packages changed, and
// before packaging.
//   node --import tsx scripts/pgdata-template.ts
import '../src/core/private-umask';
import { createCore } from '../src/core';
import { buildAppTemplate } from '../src/core/db/pgdata-template';

const dir = await buildAppTemplate(async (dataDir) => {
  await (await createCore({ dataDir, dailyBackups: false })).close();
});
console.error(`pgdata template: ${dir}`);
