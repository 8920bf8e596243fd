// The browser host: the same core as the desktop app, served to a browser on
// 127.0.0.1 with a per-launch token (docs/security.md). Plain Node; never imports electron.
// First: files created from here on are private to the user (docs/data-safety.md).
import '../core/private-umask';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCore, type Core } from '../core';
import { appTemplate } from '../core/db/pgdata-template';
import { uploadSink } from '../core/knowledge/upload';
import { importSink } from '../core/portable/upload';
import { writeEndpoint } from '../core/mcp/endpoint';
import { openWithHandover } from '../core/mcp/handover';
import { McpHttpSessions } from '../core/mcp/http';
import { type AppError, isAppError } from '../shared/errors';
import { readHostConfig } from './config';
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

async function main(): Promise<void> {
  const config = readHostConfig(process.env, process.argv.slice(2));
  let core: Core;
  try {
    // An MCP stdio server that opened the folder while no Hearth ran hands it over and forwards here.
    core = await openWithHandover(config.dataDir, () =>
      createCore({
        dataDir: config.dataDir,
        watchDirs: config.watchDirs,
        lockRole: 'host',
        pgdataTemplate: appTemplate(),
        ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
        ...(config.restoreBackup ? { restoreBackup: config.restoreBackup } : {}),
        ...(config.startEmpty ? { startEmpty: true } : {}),
      }),
    );
  } catch (e) {
    // A second Hearth on the same data, or a newer database: say so plainly.
    console.error(isAppError(e) ? `Hearth cannot start: ${e.message}${startChoices(e)}` : e);
    process.exit(1);
  }

  if (config.workspaceDir) {
    // The launch option is the browser host's only way to set it: its page may not (docs/security.md).
    const set = await core.dispatch('settings.set', { workspaceDir: config.workspaceDir }, { actor: 'user' });
    if (!set.ok) {
      console.error(`Hearth cannot start: the workspace folder: ${set.error.message}`);
      await core.close();
      process.exit(1);
    }
  }

  let server: HostServer;
  try {
    server = await startHostServer({
      dispatch: core.dispatch,
      uploads: uploadSink(core.ctx),
      imports: importSink(core.ctx),
      events: core.events,
      token: config.token,
      port: config.port,
      rendererDir: config.rendererDir,
      mcp: new McpHttpSessions({ ctx: core.ctx, dispatch: core.dispatch }),
    });
  } catch (e) {
    console.error(`Hearth cannot listen on 127.0.0.1:${config.port}: ${(e as Error).message}`);
    await core.close();
    process.exit(1);
  }

  // How other AI tools reach this Hearth: the stdio command (this install's paths) and /mcp here.
  // host.js is built into out/main; scripts/ sits two levels up.
  core.ctx.mcpDoor.launcher = { command: process.execPath, args: [join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'mcp.mjs')], env: {} };
  core.ctx.mcpDoor.http = { url: `http://127.0.0.1:${server.port}/mcp`, listening: true, switchable: false, enabled: true };
  const removeEndpoint = writeEndpoint(config.dataDir, { port: server.port, token: config.token, kind: 'host' });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`Hearth host: ${signal}, shutting down…`);
    try {
      removeEndpoint();
      await server.close();
    } finally {
      // Closing the core flushes PGlite and releases the data-dir lock.
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

  console.log(`Hearth data: ${config.dataDir}`);
  if (config.watchDirs.length) console.log(`Hearth watched folders may lie in: ${config.watchDirs.join(', ')}`);
  if (core.ctx.db.server) console.log(`Hearth database: the PostgreSQL server ${core.ctx.db.server}`);
  console.log(`Hearth is running at ${server.url}`);
}

main().catch((e: unknown) => {
  console.error('Hearth host failed:', e);
  process.exit(1);
});
