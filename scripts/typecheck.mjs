// `npm run typecheck`: the two TypeScript projects (Node side, renderer) checked at the same
// time. tsc is single-threaded and each run is ~30 s and ~15 s of CPU; side by side on two
// cores the check takes as long as the longer one (docs/testing.md). Both always run to the
// end, their output is printed per project, and the exit code fails if either found an error.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = ['tsconfig.node.json', 'tsconfig.web.json'];

const runs = projects.map(
  (project) =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit', '--pretty'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('error', (e) => resolve({ project, code: 1, out: `${out}${e.message}\n` }));
      child.on('close', (code, signal) => resolve({ project, code: code ?? (signal ? 1 : 0), out }));
    }),
);

let failed = false;
for (const { project, code, out } of await Promise.all(runs)) {
  if (out) process.stdout.write(out);
  if (code !== 0) {
    failed = true;
    console.error(`tsc -p ${project}: type errors (exit ${code})`);
  }
}
process.exit(failed ? 1 : 0);
