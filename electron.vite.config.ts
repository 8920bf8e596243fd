import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { WORKER_ENTRIES } from './src/core/worker-entries';

// Main-side entries share one flat output folder so that every chunk can find
// the worker files next to it with `new URL('./x.js', import.meta.url)`.
const flatOutput = {
  entryFileNames: '[name].js',
  chunkFileNames: 'chunk-[name]-[hash].js',
  format: 'es' as const,
};

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          host: resolve(__dirname, 'src/host/start.ts'),
          mcp: resolve(__dirname, 'src/mcp/stdio-main.ts'),
          // The core's worker threads, one bundle each, named in src/core/worker-entries.ts.
          ...Object.fromEntries(
            Object.entries(WORKER_ENTRIES).map(([name, source]) => [name, resolve(__dirname, 'src/core', source)]),
          ),
        },
        output: flatOutput,
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        // A sandboxed renderer can only load a CommonJS preload.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [
      react(),
      {
        // The dev server's hot reload needs an inline preamble; the strict meta policy (equal to the
        // built app's header) would block it. Only `electron-vite dev` drops it: main sets a dev header.
        name: 'hearth-dev-csp',
        apply: 'serve',
        transformIndexHtml: (html: string) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/, ''),
      },
      {
        // Chromium fetches nothing past a blocking script until it has arrived: listed after it, the page's
        // code and style waited for theme-boot.js. Moved last in <head>, it still runs before the first paint,
        // and the module script (which waits for the document anyway) and the style are fetched beside it (docs/startup.md).
        name: 'hearth-theme-boot-last',
        apply: 'build',
        transformIndexHtml: {
          order: 'post' as const,
          handler: (html: string) => {
            const tag = /\s*<script src="\.\/theme-boot\.js"><\/script>/;
            const found = tag.exec(html);
            return found ? html.replace(tag, '').replace('</head>', `${found[0].replace(/^\s*/, '  ')}\n  </head>`) : html;
          },
        },
      },
    ],
    build: {
      outDir: resolve(__dirname, 'out/renderer'),
      // electron-vite leaves the renderer unminified by default; minified, the page's first file is 290 kB instead of 694 kB (docs/startup.md).
      minify: true,
      rollupOptions: { input: resolve(__dirname, 'src/renderer/index.html') },
    },
  },
});
