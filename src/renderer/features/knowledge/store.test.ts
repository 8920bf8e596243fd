import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventName, Events } from '../../../shared/api';
import { makeTestCore, type TestCore } from '../../../core/testing/core';
import { installPageBridge } from '../../../core/testing/page-bridge';
import { makeBookPdf } from '../../../core/testing/test-pdfs';
import { waitFor } from '../../../core/testing/wait-jobs';

// The knowledge store against the real core, through the same preload-bridge shape Electron's renderer
// uses. The bridge answers `knowledge.ingest` only after the job has reported progress: on a busy machine
// the event socket can beat the call's answer, and that order once showed one file as two rows.
let core: TestCore;
const seen: { name: EventName; payload: unknown }[] = [];

let removeBridge: () => void = () => undefined;

beforeAll(async () => {
  core = await makeTestCore();
  removeBridge = installPageBridge(core, {
    async afterAnswer(method, answer) {
      if (method !== 'knowledge.ingest' || !answer.ok) return;
      const { jobId } = answer.data as { jobId: string };
      const reported = () => seen.some((e) => e.name === 'ingest.progress' && (e.payload as Events['ingest.progress']).jobId === jobId);
      await waitFor(async () => reported(), 'the ingest job to report progress');
    },
    pathForFile: (file) => join(core.dataDir, '..', file.name),
  });
});

afterAll(async () => {
  removeBridge();
  await core?.dispose();
});

describe('a dropped file', () => {
  it('keeps one row when its job reports progress before the ingest call answers, and goes once added', async () => {
    const { useKnowledge } = await import('./store');
    const store = useKnowledge;
    // What live.ts does in the app: events into the store.
    const off = core.events.subscribe((name, payload) => {
      seen.push({ name, payload });
      if (name === 'ingest.progress') store.getState().onProgress(payload as Events['ingest.progress']);
      if (name === 'jobs.changed') store.getState().onJob((payload as Events['jobs.changed']).job);
    });
    let mostRows = 0;
    const states = new Set<string>();
    const unwatch = store.subscribe((s) => {
      const rows = s.ingests.filter((i) => i.source === 'manual.pdf');
      mostRows = Math.max(mostRows, rows.length);
      rows.forEach((r) => states.add(r.state));
    });
    try {
      const path = join(core.dataDir, '..', 'manual.pdf');
      writeFileSync(path, await makeBookPdf(12));
      store.getState().open('main');
      await store.getState().ingestFiles('main', [new File([], 'manual.pdf')]);
      // The answer came after the progress: the row shows the job running, not "sending…" or queued.
      expect(store.getState().ingests.filter((i) => i.source === 'manual.pdf').map((i) => i.state)).toEqual(['running']);
      await waitFor(async () => store.getState().ingests.length === 0, 'the ingest row to go');
      await waitFor(async () => store.getState().sources.some((x) => x.source === 'manual.pdf'), 'the source to be listed');
      expect(mostRows).toBe(1);
      expect(states.has('uploading')).toBe(true);
    } finally {
      unwatch();
      off();
    }
  });
});
