// The browser host's entry. Its first lines load only what starts the database
// thread and PGlite's WebAssembly compile (src/core/db/warm-start.ts); the host
// and the rest of the core (src/host/index.ts) load while those run (docs/startup.md).
// First: files created from here on are private to the user (docs/data-safety.md).
import '../core/private-umask';
import { warmDatabase } from '../core/db/warm-start';

warmDatabase();
await import('./index');
