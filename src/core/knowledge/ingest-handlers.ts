import { basename, isAbsolute } from 'node:path';
import { knowledgeArgs } from '../../shared/contract/knowledge';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { handler } from '../method';
import { requirePersona } from '../personas/store';
import { readSettings } from '../settings/store';
import { enqueueIngest } from './ingest';
import { detectKind } from '../parse/detect';
import { parseError } from '../parse/errors';
import { inspectFile } from '../parse/inspect';
import { sourceName } from './source-name';
import { stageUpload } from './staging';
import { ingestStaged } from './upload';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function mb(n: number): string {
  return `${Math.round(n / 1024 / 1024)} MB`;
}

/** Ingests a file the user gave by path (Electron drop / picker): checked now, parsed by the job. */
export async function ingestPath(ctx: CoreContext, persona: string, path: string) {
  if (!isAbsolute(path)) throw new AppError('invalid_args', 'The file path must be absolute.');
  const name = basename(path);
  const { maxIngestBytes } = await readSettings(ctx);
  // Early, clear answers for what the job would refuse anyway (missing, too large, wrong type).
  await inspectFile(path, name, maxIngestBytes);
  const source = sourceName(name);
  const jobId = await enqueueIngest(ctx, { persona, source, path, name, staged: false });
  ctx.wakeJobs();
  return { jobId, source };
}

async function ingestUpload(ctx: CoreContext, persona: string, rawName: string, dataBase64: string) {
  const name = sourceName(rawName);
  const { maxIngestBytes } = await readSettings(ctx);
  const size = Math.floor((dataBase64.length * 3) / 4) - (dataBase64.endsWith('==') ? 2 : dataBase64.endsWith('=') ? 1 : 0);
  if (size > maxIngestBytes) {
    throw parseError('too_large', `"${name}" is ${mb(size)}, above the ${mb(maxIngestBytes)} limit (Settings → maximum file size).`);
  }
  if (!BASE64.test(dataBase64)) throw new AppError('invalid_args', `The upload of "${name}" is not valid base64.`);
  const bytes = Buffer.from(dataBase64, 'base64');
  detectKind(name, bytes.subarray(0, 1024), bytes.length);
  const path = await stageUpload(ctx, name, bytes);
  return ingestStaged(ctx, persona, name, { path, bytes: bytes.length, head: bytes.subarray(0, 1024) });
}

export const ingestHandlers = {
  'knowledge.ingest': handler(
    knowledgeArgs['knowledge.ingest'],
    async (args, ctx) => {
      await requirePersona(ctx.db, args.persona);
      return 'path' in args
        ? ingestPath(ctx, args.persona, args.path)
        : ingestUpload(ctx, args.persona, args.name, args.dataBase64);
    },
  ),
};
