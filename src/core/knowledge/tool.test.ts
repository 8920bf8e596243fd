import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppError } from '../../shared/errors';
import { chunksOf, ingestFixture, type IngestFixture } from '../testing/knowledge-fixture';
import { ingestForTool } from './tool';
import { resolveInWorkspace } from './workspace';

let f: IngestFixture;
let base: string;
let ws: string; // <workspaceDir>
let mine: string; // <workspaceDir>/main

beforeAll(async () => {
  f = await ingestFixture();
  base = mkdtempSync(join(tmpdir(), 'hearth-ws-'));
  ws = join(base, 'workspace');
  mine = join(ws, 'main');
  mkdirSync(join(mine, 'docs'), { recursive: true });
  mkdirSync(join(ws, 'trader'), { recursive: true });
  writeFileSync(join(mine, 'docs', 'plan.md'), '# Plan\n\nShip the lighthouse release on Friday.');
  writeFileSync(join(ws, 'trader', 'secret.md'), 'Trader persona notes.');
  writeFileSync(join(base, 'outside.txt'), 'Not for the model.');
  symlinkSync(join(base, 'outside.txt'), join(mine, 'escape.txt'));
  symlinkSync(join(ws, 'trader'), join(mine, 'trader-link'));
  symlinkSync(join(mine, 'docs', 'plan.md'), join(mine, 'plan-link.md'));
  await f.core.call('settings.set', { workspaceDir: ws });
});
afterAll(async () => {
  await f?.dispose();
  rmSync(base, { recursive: true, force: true });
});

async function refused(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

describe('workspace path guard', () => {
  it('resolves relative paths and absolute paths inside the persona folder', async () => {
    const real = join(mine, 'docs', 'plan.md');
    expect(await resolveInWorkspace(ws, 'main', 'docs/plan.md')).toBe(real);
    expect(await resolveInWorkspace(ws, 'main', './docs/plan.md')).toBe(real);
    expect(await resolveInWorkspace(ws, 'main', real)).toBe(real);
    // A symlink is fine when its target stays inside.
    expect(await resolveInWorkspace(ws, 'main', 'plan-link.md')).toBe(real);
  });

  it.each([
    ['a parent segment', '../trader/secret.md', /contains "\.\."/],
    ['a parent segment that comes back in', 'docs/../docs/plan.md', /contains "\.\."/],
    ['a backslash parent segment', '..\\..\\outside.txt', /contains "\.\."/],
    ['an absolute path elsewhere', '/etc/passwd', /outside/],
    ['another persona’s folder by absolute path', '', /outside/],
    ['a symlink to a file outside', 'escape.txt', /symlink/],
    ['a symlinked folder of another persona', 'trader-link/secret.md', /symlink/],
  ])('refuses %s', async (_, requested, message) => {
    const path = requested || join(ws, 'trader', 'secret.md');
    const e = await refused(resolveInWorkspace(ws, 'main', path));
    expect(e.code).toBe('forbidden');
    expect(e.message).toMatch(message);
  });

  it('says so when no workspace folder is set, or a file is missing', async () => {
    expect((await refused(resolveInWorkspace(null, 'main', 'docs/plan.md'))).code).toBe('not_configured');
    expect((await refused(resolveInWorkspace(ws, 'main', 'docs/none.md'))).code).toBe('not_found');
    expect((await refused(resolveInWorkspace(ws, 'nobody', 'x.md'))).message).toMatch(/workspace folder .* does not exist/);
  });
});

describe('knowledge_ingest tool', () => {
  it('queues a workspace file and ingests it', async () => {
    const res = await ingestForTool(f.core.ctx, 'main', { path: 'docs/plan.md' });
    expect(res).toMatchObject({ status: 'queued', source: 'plan.md' });
    if (res.status !== 'queued') throw new Error('unreachable');
    expect((await f.settled(res.jobId)).state).toBe('completed');
    expect((await chunksOf(f.core, 'main', 'plan.md'))[0]!.content).toContain('lighthouse release');
  });

  it('refuses escape attempts without enqueuing anything', async () => {
    const before = (await f.core.call('jobs.list', { queue: 'ingest' })).jobs.length;
    for (const path of ['../trader/secret.md', '/etc/passwd', 'escape.txt', join(base, 'outside.txt')]) {
      expect((await refused(ingestForTool(f.core.ctx, 'main', { path }))).code).toBe('forbidden');
    }
    expect((await f.core.call('jobs.list', { queue: 'ingest' })).jobs.length).toBe(before);
  });

  it('ingests raw text under the given source name, replacing it on repeat', async () => {
    const first = await ingestForTool(f.core.ctx, 'main', { text: 'Meeting notes: the budget is approved.', source: 'meeting' });
    expect(first).toEqual({ status: 'ingested', source: 'meeting', chunks: 1 });
    await ingestForTool(f.core.ctx, 'main', { text: 'Meeting notes, revised: budget postponed.', source: 'meeting' });
    expect((await chunksOf(f.core, 'main', 'meeting')).map((c) => c.content)).toEqual(['Meeting notes, revised: budget postponed.']);
  });

  it('rejects malformed arguments with a message the model can act on', async () => {
    for (const args of [{}, { text: '   ', source: 'x' }, { path: 'a', text: 'b' }, { text: 'no source' }, 'docs/plan.md']) {
      const e = await refused(ingestForTool(f.core.ctx, 'main', args));
      expect(e.code).toBe('invalid_args');
      expect(e.message).toMatch(/knowledge_ingest takes \{path\}/);
    }
  });
});
