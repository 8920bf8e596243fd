// Renders src/renderer/public/icon.svg to the PNGs the desktop app and installers use
// (build/icon.png 512 px, src/renderer/public/icon.png 256 px), with the Chromium the e2e tests
// already use: no image library needed. Run after editing the SVG: node scripts/make-icon.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';

const svg = readFileSync(new URL('../src/renderer/public/icon.svg', import.meta.url), 'utf8');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
try {
  for (const [size, out] of [
    [512, '../build/icon.png'],
    [256, '../src/renderer/public/icon.png'],
  ]) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
    writeFileSync(new URL(out, import.meta.url), await page.screenshot({ omitBackground: true }));
    await page.close();
    console.log(`wrote ${out.slice(3)} (${size} px)`);
  }
} finally {
  await browser.close();
}
