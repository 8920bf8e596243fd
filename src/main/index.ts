// The desktop shell: one window, one IPC channel into the core. The core
// itself (src/core) never imports electron.
// First: files created from here on are private to the user (docs/data-safety.md).
import '../core/private-umask';
import { app, dialog } from 'electron';
import { dataDirFlag, databaseUrlFrom, startHearth, type Core } from '../core';
import { startMcpListener } from '../mcp/listener';
import { runStdioServer } from '../mcp/stdio';
import { mcpModeArgs, mcpLauncher } from './mcp-mode';
import { type AppError, isAppError } from '../shared/errors';
import { GrantedPaths } from './granted-paths';
import { connectIpc } from './ipc';
import { SafeStorageSecretStore } from './safe-storage-secrets';
import { enforceCsp } from './security';
import { createMainWindow, RENDERER_DIR, rendererUrl } from './window';
import { registerAppScheme, serveRenderer } from './app-protocol';

function fail(message: string): void {
  console.error(message);
  dialog.showErrorBox('Hearth cannot start', message);
  app.exit(1);
}

type StartChoice = { restoreBackup?: string; startEmpty?: true };

/**
 * A refusal at start that a backup can answer (data_missing, data_damaged): the
 * person chooses to restore the newest backup, to start with no data (only for a
 * missing or empty database, and confirmed a second time), or to quit.
 */
async function askAfterRefusal(e: AppError): Promise<StartChoice | null> {
  const details = e.details as { newestBackup?: { id: string } | null; canStartEmpty?: boolean } | undefined;
  if ((e.code !== 'data_damaged' && e.code !== 'data_missing') || !details?.newestBackup) return null;
  const backup = details.newestBackup.id;
  for (;;) {
    const buttons = ['Restore the newest backup', ...(details.canStartEmpty ? ['Start with no data…'] : []), 'Quit'];
    const { response } = await dialog.showMessageBox({
      type: 'warning',
      title: 'Hearth cannot open your data',
      message: e.code === 'data_missing' ? 'Your database is missing, but its backups are there.' : 'Your database is damaged.',
      detail: e.message,
      buttons,
      defaultId: 0,
      cancelId: buttons.length - 1,
      noLink: true,
    });
    if (response === 0) return { restoreBackup: backup };
    if (!details.canStartEmpty || response !== 1) return null;
    const sure = await dialog.showMessageBox({
      type: 'warning',
      title: 'Start with no data?',
      message: 'Start Hearth with an empty database?',
      detail: 'The app opens with no memories. Your backups stay in the backups folder; Settings → Data can restore one later.',
      buttons: ['Start with no data', 'Go back'],
      defaultId: 1,
      cancelId: 1,
      noLink: true,
    });
    if (sure.response === 0) return { startEmpty: true };
  }
}

async function start(): Promise<void> {
  await app.whenReady();
  const dataDir = dataDirFlag(process.argv) ?? (process.env.HEARTH_DATA_DIR || app.getPath('userData'));
  const databaseUrl = databaseUrlFrom(process.argv);
  let core: Core | null = null;
  let choice: StartChoice = {};
  while (!core) {
    try {
      // An MCP stdio server that opened the folder while the app was closed hands it over.
      const notices: string[] = [];
      const secrets = new SafeStorageSecretStore(dataDir, (message) => {
        console.warn(message);
        notices.push(message);
      });
      core = await startHearth({ door: 'desktop', dataDir, secrets, notices, ...choice, ...(databaseUrl ? { databaseUrl } : {}) });
    } catch (e) {
      const next = isAppError(e) && !choice.restoreBackup && !choice.startEmpty ? await askAfterRefusal(e) : null;
      if (!next) return fail(isAppError(e) ? e.message : `Could not open the data in ${dataDir}: ${(e as Error).message}`);
      choice = next;
    }
  }

  const devServerUrl = !app.isPackaged && process.env.ELECTRON_RENDERER_URL ? process.env.ELECTRON_RENDERER_URL : null;
  enforceCsp(devServerUrl);
  if (!devServerUrl) serveRenderer(RENDERER_DIR);
  const win = createMainWindow(rendererUrl(devServerUrl));
  const disconnect = connectIpc(core, win, new GrantedPaths());
  // Other AI tools start this same binary in its `--mcp` mode (packaged builds refuse ELECTRON_RUN_AS_NODE).
  core.mcp.setLauncher(mcpLauncher(process.execPath, app.isPackaged ? null : app.getAppPath()));
  const mcp = core.mcp.switchable(startMcpListener);
  await mcp.start().catch((e: unknown) => console.error('the MCP listener did not start:', e));

  app.on('second-instance', () => {
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());

  let closing = false;
  app.on('will-quit', (event) => {
    if (closing) return;
    // Close the core (flushes PGlite, releases the data-dir lock) before exiting.
    event.preventDefault();
    closing = true;
    disconnect();
    mcp
      .stop()
      .then(() => core.close())
      .catch((e: unknown) => console.error('closing the core failed:', e))
      .finally(() => app.exit(0));
  });
}

const mcpArgs = mcpModeArgs(process.argv);
if (mcpArgs) {
  // An MCP host started us as its stdio server: no window, no single-instance lock
  // (the stdio server forwards to the running app or owns the folder itself).
  app.dock?.hide();
  runStdioServer(mcpArgs).catch((e: unknown) => {
    console.error('Hearth MCP server failed:', e);
    app.exit(1);
  });
} else {
  registerAppScheme();
  startDesktop();
}

function startDesktop(): void {
  // Two Hearths on one database silently lose writes: the second one just hands over.
  if (!app.requestSingleInstanceLock()) {
    console.error('Hearth is already running; switching to the open window.');
    app.quit();
  } else {
    start().catch((e: unknown) => fail(`Hearth failed to start: ${(e as Error).message}`));
  }
}
