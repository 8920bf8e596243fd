// Packaging for `npm run dist` (electron-builder). Reviewed, not run here: the
// build machines have no Electron binary (see README → Packaging). The fuses
// turn off what would let another program run code inside Hearth's signed
// binary: ELECTRON_RUN_AS_NODE, NODE_OPTIONS and --inspect.
/** @type {import('electron-builder').Configuration} */
module.exports = {
  appId: 'app.hearth.desktop',
  productName: 'Hearth',
  // build/icon.png (512 px, drawn from src/renderer/public/icon.svg by scripts/make-icon.mjs):
  // electron-builder derives the .icns and .ico from it.
  directories: { output: 'dist', buildResources: 'build' },
  icon: 'build/icon.png',
  files: ['out/**', 'migrations/**', 'package.json'],
  // Loaded by path at run time, so kept outside the asar archive: the local
  // embedding model's weights and its workers, the PDF parser, PGlite's wasm
  // and extension bundles, and the migrations read with fs.
  asarUnpack: [
    'out/main/*worker*',
    // The empty database a first launch copies with fs (src/core/db/pgdata-template.ts).
    'out/pgdata-template/**',
    'migrations/**',
    'node_modules/@energetic-ai/**',
    'node_modules/@tensorflow/**',
    'node_modules/@electric-sql/**',
    'node_modules/pdfjs-dist/**',
  ],
  electronFuses: {
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableCookieEncryption: true,
    onlyLoadAppFromAsar: true,
    enableEmbeddedAsarIntegrityValidation: true,
  },
  linux: { target: ['AppImage'], category: 'Utility' },
  mac: { target: ['dmg'], category: 'public.app-category.productivity' },
  win: { target: ['nsis'] },
};
