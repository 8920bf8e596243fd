// `npm run serve`: the browser host (docs/security.md). HEARTH_DATA_DIR / --data-dir,
// HEARTH_PORT and HEARTH_TOKEN are read by the host itself.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfNeeded, ROOT } from './build-if-needed.mjs';

buildIfNeeded();
await import(pathToFileURL(join(ROOT, 'out', 'main', 'host.js')).href);
