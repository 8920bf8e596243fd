// The browser host: the same core as the desktop app, served to a browser on
// 127.0.0.1 with a per-launch token (docs/security.md). Plain Node; never imports electron.
// First: files created from here on are private to the user (docs/data-safety.md).
import '../core/private-umask';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHearth, type Core } from '../core';
import { type AppError, isAppError } from '../shared/errors';
import { type HostConfig, readHostConfig } from './config';
import { startHostServer, type HostServer } from './server';

/** How to answer a refusal at start from this door: the choices are launch options (docs/data-safety.md). */
function startChoices(e: AppError): string {
  const details = e.details as { newestBackup?: { id: string } | null; canStartEmpty?: boolean } | undefined;
  if ((e.code !== 'data_damaged' && e.code !== 'data_missing') || !details?.newestBackup) return '';
  const lines = [
    `\nTo restore the newest backup, start Hearth again with: --restore-backup ${details.newestBackup.id}` +
      (e.code === 'data_damaged' ? ' (the damaged database is kept beside it, renamed pgdata.damaged-<time>)' : ''),
  ];
  if (details.canStartEmpty) lines.push('To start with no data instead (your backups stay in backups/), start it with: --start-empty');
  return lines.join('\n');
}

/** Opens the data (an MCP stdio server holding the folder hands it over); a refusal is said plainly and ends the process. */
async function openData(config: HostConfig): Promise<Core> {
  try {
    return await startHearth({
      door: 'host',
      dataDir: config.dataDir,
      watchDirs: config.watchDirs,
      ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
      ...(config.restoreBackup ? { restoreBackup: config.restoreBackup } : {}),
      ...(config.startEmpty ? { startEmpty: true } : {}),
    });
  } catch (e) {
    // A second Hearth on the same data, or a newer database: say so plainly.
    console.error(isAppError(e) ? `Hearth cannot start: ${e.message}${startChoices(e)}` : e);
    process.exit(1);
  }
}

/** The launch option is the browser host's only way to set the workspace folder: its page may not (docs/security.md). */
async function applyWorkspace(core: Core, workspaceDir: string | null): Promise<void> {
  if (!workspaceDir) return;
  const set = await core.dispatch('settings.set', { workspaceDir }, { actor: 'user' });
  if (set.ok) return;
  console.error(`Hearth cannot start: the workspace folder: ${set.error.message}`);
  await core.close();
  process.exit(1);
}

async function listen(core: Core, config: HostConfig): Promise<HostServer> {
  try {
    return await startHostServer({
      dispatch: core.dispatch,
      uploads: core.uploads,
      imports: core.imports,
      events: core.events,
      token: config.token,
      port: config.port,
      rendererDir: config.rendererDir,
      mcp: core.mcp.sessions(),
    });
  } catch (e) {
    console.error(`Hearth cannot listen on 127.0.0.1:${config.port}: ${(e as Error).message}`);
    await core.close();
    process.exit(1);
  }
}

/** How other AI tools reach this Hearth: the stdio command (this install's paths) and /mcp here; returns how to withdraw the endpoint file. */
function announceMcp(core: Core, server: HostServer, token: string): () => void {
  // host.js is built into out/main; scripts/ sits two levels up.
  core.mcp.setLauncher({ command: process.execPath, args: [join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'mcp.mjs')], env: {} });
  return core.mcp.announce({ port: server.port, token, url: `http://127.0.0.1:${server.port}/mcp`, kind: 'host' });
}

/** SIGINT/SIGTERM: the endpoint file goes first, then the server, then the core (flushes PGlite, releases the lock). */
function stopOnSignals(core: Core, server: HostServer, removeEndpoint: () => void): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Hearth host: ${signal}, shutting down…`);
    try {
      removeEndpoint();
      await server.close();
    } finally {
      await core.close();
    }
    process.exit(0);
  };
  const onSignal = (signal: string) =>
    stop(signal).catch((e: unknown) => {
      console.error('Hearth host: shutdown failed:', e);
      process.exit(1);
    });
  process.on('SIGINT', () => void onSignal('SIGINT'));
  process.on('SIGTERM', () => void onSignal('SIGTERM'));
}

async function main(): Promise<void> {
  const config = readHostConfig(process.env, process.argv.slice(2));
  const core = await openData(config);
  await applyWorkspace(core, config.workspaceDir);
  const server = await listen(core, config);
  stopOnSignals(core, server, announceMcp(core, server, config.token));

  console.log(`Hearth data: ${config.dataDir}`);
  if (config.watchDirs.length) console.log(`Hearth watched folders may lie in: ${config.watchDirs.join(', ')}`);
  if (core.ctx.db.server) console.log(`Hearth database: the PostgreSQL server ${core.ctx.db.server}`);
  console.log(`Hearth is running at ${server.url}`);
}

main().catch((e: unknown) => {
  console.error('Hearth host failed:', e);
  process.exit(1);
});
