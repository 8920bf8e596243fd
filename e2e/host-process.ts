import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..');
export const HOST_JS = join(ROOT, 'out', 'main', 'host.js');
const URL_LINE = /Hearth is running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=\S+)/;

export interface RunningHost {
  child: ChildProcess;
  url: string;
  port: number;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
  stop(): Promise<number | null>;
}

/** Starts the built browser host (`node out/main/host.js`) and waits for the URL it prints. */
export async function spawnHost(
  env: { dataDir: string; token: string; port?: number; /** A PostgreSQL server instead of the folder's PGlite. */ databaseUrl?: string },
  timeoutMs = 90_000,
): Promise<RunningHost> {
  if (!existsSync(HOST_JS)) throw new Error(`${HOST_JS} is missing: run \`npm run build\` before the e2e tests.`);
  const child = spawn(process.execPath, [HOST_JS], {
    cwd: ROOT,
    env: {
      ...process.env,
      HEARTH_DATA_DIR: env.dataDir,
      HEARTH_TOKEN: env.token,
      HEARTH_PORT: String(env.port ?? 0),
      // Watched folders (docs/watched-folders.md) may lie in the data folder's `watched` (made by the test that needs it).
      HEARTH_WATCH_DIRS: join(env.dataDir, 'watched'),
      ...(env.databaseUrl ? { HEARTH_DATABASE_URL: env.databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the host printed no URL within ${timeoutMs} ms:\n${log}`)), timeoutMs);
    const check = () => {
      const m = URL_LINE.exec(log);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the host exited (code ${code}) before printing its URL:\n${log}`));
    });
  }).catch(async (e: unknown) => {
    child.kill('SIGKILL');
    throw e;
  });

  return {
    child,
    url: match[1]!,
    port: Number(match[2]),
    output: () => log,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const code = await exited;
      clearTimeout(killer);
      return code;
    },
  };
}
