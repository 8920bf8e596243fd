import { basename, isAbsolute } from 'node:path';
import { memoryArgs } from '../../shared/contract/memories';
import { personaArgs } from '../../shared/contract/personas';
import { AppError } from '../../shared/errors';
import type { CoreContext } from '../context';
import { removeStaged, stageUpload } from '../knowledge/staging';
import { handler } from '../method';
import { openRegularFile } from '../parse/regular-file';
import { requirePersona } from '../personas/store';
import { exportPersona } from './export';
import { decodeInput, importFromTool } from './from-tools';
import { importPersonaFile } from './import';
import { cancelImport, trackImport } from './running';
import { MAX_IMPORT_BYTES } from './limits';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Imports a .hearth file already on disk, reporting progress like ingestion
 * does; `personas.importCancel {name: label}` stops it.
 */
export async function importStagedFile(ctx: CoreContext, path: string, label: string) {
  const run = trackImport(ctx, label);
  try {
    return await importPersonaFile(
      ctx,
      path,
      (p) => ctx.events.emit('personas.transfer', { op: 'import', persona: label, stage: p.stage, done: p.done, total: p.total }),
      { signal: run.signal },
    );
  } finally {
    run.release();
  }
}

async function importFromPath(ctx: CoreContext, path: string) {
  if (!isAbsolute(path)) throw new AppError('invalid_args', 'The file path must be absolute.');
  // Special files (FIFOs, devices, folders) are refused before they are opened for reading.
  const handle = await openRegularFile(path, basename(path));
  try {
    // The size is known before a byte is read: a file past the bound is refused at once.
    const { size } = await handle.stat();
    if (size > MAX_IMPORT_BYTES) throw tooLarge(basename(path), size);
  } finally {
    await handle.close();
  }
  return importStagedFile(ctx, path, basename(path));
}

async function importUpload(ctx: CoreContext, name: string, dataBase64: string) {
  if (Math.floor((dataBase64.length * 3) / 4) > MAX_IMPORT_BYTES) throw tooLarge(name, Math.floor((dataBase64.length * 3) / 4));
  if (!BASE64.test(dataBase64)) throw new AppError('invalid_args', `The upload of "${name}" is not valid base64.`);
  const path = await stageUpload(ctx, name, Buffer.from(dataBase64, 'base64'));
  try {
    return await importStagedFile(ctx, path, name);
  } finally {
    await removeStaged(path);
  }
}

export function tooLarge(name: string, bytes: number): AppError {
  const gib = (n: number) => `${(n / 1024 ** 3).toFixed(1)} GiB`;
  return new AppError('too_large', `“${name}” is ${gib(bytes)}; a persona file can be at most ${gib(MAX_IMPORT_BYTES)}. Nothing was imported.`);
}

export const portableHandlers = {
  'personas.export': handler(personaArgs['personas.export'], async ({ id }, ctx) => {
    await requirePersona(ctx.db, id);
    return exportPersona(ctx, id, (done, total) =>
      ctx.events.emit('personas.transfer', { op: 'export', persona: id, stage: 'writing', done, total }),
    );
  }),

  'personas.import': handler(
    personaArgs['personas.import'],
    async (args, ctx) => {
      const result = await ('path' in args ? importFromPath(ctx, args.path) : importUpload(ctx, args.name, args.dataBase64));
      ctx.events.emit('personas.changed', { persona: result.persona.id });
      return result;
    },
  ),

  'personas.importCancel': handler(personaArgs['personas.importCancel'], async ({ name }, ctx) => ({
    cancelled: cancelImport(ctx, name),
  })),

  'memories.importFrom': handler(
    memoryArgs['memories.importFrom'],
    async ({ persona, format, text, dataBase64, dryRun }, ctx) =>
      importFromTool(ctx, persona, format, decodeInput(text, dataBase64), dryRun ?? false),
  ),
};
