import { test } from './fixtures';
import { LOOKS, runTour, seedTour, startTour } from './tour';

// The screenshot set: every stop of the tour, light and dark, 1280, 760 and 600 px, as a person sees
// the window (viewport, not the full scroll height). Run with `npm run screenshots`.
test.use({ fakeOpenAI: true });

for (const look of LOOKS) {
  test(`screenshots: ${look.theme}, ${look.width} px`, async ({ host, fake, page }) => {
    await seedTour(host);
    const app = await startTour(page, host, fake!);
    let n = 0;
    await runTour(app, look, async (stop) => {
      n++;
      const path = `e2e-artifacts/tour/${look.theme}-${look.width}/${String(n).padStart(2, '0')}-${stop.name}.png`;
      await page.screenshot({ path });
    });
    console.log(`${n} screenshots in e2e-artifacts/tour/${look.theme}-${look.width}/`);
  });
}
