import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadsDir } from '../core/knowledge/staging';
import { ingestFixture, type IngestFixture } from '../core/testing/knowledge-fixture';
import { startHostServer, type HostServer } from './server';

const TOKEN = 'uploads-test-token-0123456789abcdef';
let f: IngestFixture;
let host: HostServer;
let dir: string;

beforeAll(async () => {
  f = await ingestFixture();
  dir = mkdtempSync(join(tmpdir(), 'hearth-uploads-test-'));
  host = await startHostServer({
    dispatch: f.core.dispatch,
    uploads: f.core.uploads,
    events: f.core.events,
    token: TOKEN,
    port: 0,
    rendererDir: dir,
  });
});
afterAll(async () => {
  await host?.close();
  await f?.dispose();
  rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  body: { ok: boolean; data?: { jobId: string; source: string }; error?: { code: string; message: string } } | string;
  /** Bytes the client had written when the answer arrived, and in all. */
  sentAtAnswer: number;
  total: number;
}

/**
 * POSTs `pieces` one after another and stops sending once an answer arrives.
 * `unfinished`: never ends the body, so an answer can only be one given before
 * the body was complete.
 */
function post(method: string, pieces: Buffer[], opts: { unfinished?: boolean; headers?: Record<string, string> } = {}): Promise<Answer> {
  const total = pieces.reduce((n, p) => n + p.length, 0);
  let sent = 0;
  let sentAtAnswer = -1;
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port: host.port,
      method: 'POST',
      path: `/api/${method}`,
      // A connection of its own: a request cut short (a declared length never sent) must not be reused.
      agent: false,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...opts.headers },
    });
    req.on('response', (res) => {
      sentAtAnswer = sent;
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        req.destroy(); // an unfinished body has nothing more to say
        let body: Answer['body'] = text;
        try {
          body = JSON.parse(text) as Answer['body'];
        } catch {
          // a plain-text answer stays text
        }
        resolve({ status: res.statusCode ?? 0, body, sentAtAnswer, total });
      });
    });
    req.on('error', reject);
    void (async () => {
      for (const p of pieces) {
        if (sentAtAnswer >= 0) return; // answered: stop sending
        sent += p.length;
        if (!req.write(p)) await new Promise((r) => req.once('drain', r));
      }
      if (!opts.unfinished) req.end();
    })();
  });
}

/** Splits a text into pieces of `size` bytes (tiny pieces cross every token boundary). */
function pieces(text: string | Buffer, size: number): Buffer[] {
  const b = Buffer.from(text);
  const out: Buffer[] = [];
  for (let i = 0; i < b.length; i += size) out.push(b.subarray(i, i + size));
  return out;
}

const staged = () => (existsSync(uploadsDir(f.core.ctx)) ? readdirSync(uploadsDir(f.core.ctx)) : []);

describe('uploads through the browser host are streamed to disk', () => {
  it('ingests a file sent as base64 in JSON, whatever the field order and however the body is cut', async () => {
    // "???" comes out as "Pz8/" in base64 at one of three alignments: the body has slashes to escape.
    const text = 'The lighthouse keeper logs every passing ship? '.repeat(100) + '??? ?? ?'.repeat(3) + ' Zebrafish regrow their fins.';
    const b64 = Buffer.from(text).toString('base64');
    // JSON may escape "/" (base64 uses it); fields in any order.
    const body = `{ "dataBase64" : "${b64.replace(/\//g, '\\/')}", "name":"keeper\\u0027s log.txt",\n"persona": "main" }`;
    expect(body).toContain('\\/');
    const res = await post('knowledge.ingest', pieces(body, 7));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: true, data: { source: "keeper's log.txt" } });
    const job = await f.settled((res.body as { data: { jobId: string } }).data.jobId);
    expect(job.state).toBe('completed');
    const hits = await f.core.call('recall', { persona: 'main', query: 'zebrafish fins', kinds: ['knowledge'] });
    expect(hits[0]?.content).toContain('Zebrafish regrow their fins.');
    expect(staged()).toEqual([]); // the job removed its staged copy
  });

  it('answers 413 as soon as the decoded file passes the limit, before the body is complete, and keeps nothing', async () => {
    await f.core.call('settings.set', { maxIngestBytes: 256 * 1024 });
    try {
      const head = Buffer.from('{"persona":"main","name":"big.txt","dataBase64":"');
      const block = Buffer.from(Buffer.alloc(48 * 1024, 'a').toString('base64')); // 64 KiB of base64 = 48 KiB of file
      // 384 KiB of file, and the body never ends: only an answer given while reading can arrive.
      const res = await post('knowledge.ingest', [head, ...Array.from({ length: 8 }, () => block)], { unfinished: true });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ ok: false, error: { code: 'too_large', message: expect.stringContaining('256 KB limit') } });
      expect(staged()).toEqual([]);

      // A declared length over the limit is refused before a byte is read.
      const declared = await post('knowledge.ingest', [head], { headers: { 'content-length': String(10 * 1024 * 1024) } });
      expect(declared.status).toBe(413);
      expect(declared.body).toMatchObject({ ok: false, error: { code: 'too_large', message: expect.stringContaining('larger than the 256 KB limit') } });
      expect(staged()).toEqual([]);
    } finally {
      await f.core.call('settings.set', { maxIngestBytes: 100 * 1024 * 1024 });
    }
  });

  it('small methods get 413 past 4 MB, before the body is complete', async () => {
    const body = pieces(JSON.stringify({ name: 'x'.repeat(5 * 1024 * 1024) }), 256 * 1024).slice(0, -1);
    const res = await post('personas.create', body, { unfinished: true });
    expect(res.status).toBe(413);
    expect((await f.core.call('personas.list', {})).map((p) => p.id)).toEqual(['main']);
  });

  it('refuses malformed bodies with invalid_args and leaves no staged file', async () => {
    const cases: [string, RegExp][] = [
      ['{"persona":"main","name":"a.txt","dataBase64":"aGVsbG8*"}', /not valid base64/],
      ['{"persona":"main","name":"a.txt","dataBase64":"aGVsbG8="', /ends before/],
      ['{"persona":"main","name":"a.txt","dataBase64":"aGVs","dataBase64":"bG8="}', /twice/],
      ['{"persona":1,"name":"a.txt","dataBase64":"aGVsbG8="}', /must be a string/],
      ['["main"]', /JSON object/],
      ['{"persona":"main","name":"a.txt"}', /takes \{persona, name, dataBase64\}/],
      ['{"persona":"main","name":"a.txt","dataBase64":"aGVsbG8=","extra":"x"}', /Unrecognized key|extra/],
      ['{"persona":"nobody","name":"a.txt","dataBase64":"aGVsbG8="}', /nobody|persona/i],
    ];
    for (const [body, message] of cases) {
      const res = await post('knowledge.ingest', pieces(body, 5));
      expect(res.status, body).toBe(200);
      expect(res.body, body).toMatchObject({ ok: false, error: { message: expect.stringMatching(message) } });
    }
    expect(staged()).toEqual([]);
  });
});

describe('the browser host never reads a path for the page', () => {
  it('refuses knowledge.ingest {path} with one answer, whether the file exists, is missing or is a FIFO', async () => {
    const real = join(dir, 'secret.txt');
    writeFileSync(real, 'The vault code is 4711.');
    const fifo = join(dir, 'pipe.txt');
    execFileSync('mkfifo', [fifo]);
    const answers = [];
    for (const path of [real, join(dir, 'missing.txt'), fifo, '/etc/passwd', 'relative.txt']) {
      const t0 = performance.now();
      const res = await post('knowledge.ingest', [Buffer.from(JSON.stringify({ persona: 'main', path }))]);
      expect(performance.now() - t0, path).toBeLessThan(5_000); // the FIFO is never opened, so nothing hangs
      answers.push(res);
    }
    for (const a of answers) expect(a).toEqual({ ...answers[0], sentAtAnswer: a.sentAtAnswer, total: a.total });
    expect(answers[0]!.status).toBe(200);
    expect(answers[0]!.body).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/never reads files on this computer by path/) } });
    const hits = await f.core.call('recall', { persona: 'main', query: 'vault code', kinds: ['knowledge'] });
    expect(hits.filter((h) => h.content.includes('4711'))).toEqual([]);
    // The page's own requests still work after the FIFO attempt.
    expect((await post('personas.list', [Buffer.from('{}')])).status).toBe(200);
  });
});
