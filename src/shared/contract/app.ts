import { z } from 'zod';
import { noArgs } from './fields';

// The app itself, its backups and where its data is kept.

/** A backup's id as backups.list names it. */
export const backupId = z
  .string()
  .regex(/^\d{8}T\d{9}Z-[a-z-]{1,40}-[0-9a-f]{6}$/, 'not a backup id (see backups.list)');

/**
 * A PostgreSQL URL as typed. The core also parses it (src/core/server-switch/handlers.ts), so a malformed
 * one is refused with the form it should have (never echoed).
 */
export const databaseUrl = z
  .string()
  .trim()
  .min(1, 'Enter the server\'s URL (postgres://user:password@host:5432/database).')
  .max(2000);

export const appArgs = {
  /**
   * notices: what start-up found damaged, set aside or finished (the keys file, an interrupted restore,
   * damage the check after start found), for the person to read; the UI shows them as a banner.
   */
  'app.info': noArgs,
  /** Hides one notice (given by its text) until the next start; returns the ones left. */
  'app.dismissNotice': z.object({ notice: z.string().min(1).max(20_000) }).strict(),

  /** Backups of the whole database in <dataDir>/backups, newest first (docs/data-safety.md). */
  'backups.list': noArgs,
  'backups.create': noArgs,
  /** Backs up the current state first, then replaces it with the backup `id`. */
  'backups.restore': z.object({ id: backupId }).strict(),
  /** Reads every table and index of the open database now. */
  'data.checkIntegrity': noArgs,

  // Where the data is kept (docs/server-mode.md, "Switching in Settings"). The URL goes in, never back out.
  'database.get': noArgs,
  /** Connects (short timeout) and reports what the server is and holds; a failure is an answer. Writes nothing. */
  'database.test': z.object({ url: databaseUrl }).strict(),
  /** Copies every persona of this computer into the server, then saves it for the next start. */
  'database.copyAndSwitch': z.object({ url: databaseUrl }).strict(),
  /** Forgets the saved server: this computer's data from the next start. */
  'database.useLocal': noArgs,
};
