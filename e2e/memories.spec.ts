import { expect, test } from './fixtures';
import { AppPage } from './pages/AppPage';

// Each test works in a persona of its own on the worker's shared host (e2e/README.md); the long
// history keeps a host of its own, so that its 450 embeddings do not run on under later tests.
test.use({ sharedHost: true });

test('create, edit, delete and undo a memory; each change survives a reload', async ({ host, persona, openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');

  await app.memories.create({ content: 'Started learning the cello', category: 'hobbies', importance: 6, day: '2026-03-14' });
  await app.memories.create({ content: 'Flight to Oslo booked for June', category: 'travel', importance: 8 });
  await expect(app.memories.rows).toHaveCount(2);
  // Timeline: one day header per day.
  await expect(app.page.locator('[data-testid="day-header"][data-day="2026-03-14"]')).toBeVisible();

  await app.memories.edit('Started learning the cello', { content: 'Started learning the viola', importance: 9, category: 'music' });
  const edited = app.memories.row('Started learning the viola');
  await expect(edited.getByTestId('memory-category')).toHaveText('music');
  // The day in the app's one day format, in the page's locale ("Sat, Mar 14, 2026" in en-US).
  const day = await app.page.evaluate(() => new Intl.DateTimeFormat(undefined, { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(2026, 2, 14)));
  await expect(edited.getByTestId('memory-day')).toHaveText(day);
  await expect(edited.getByTestId('memory-day')).toHaveAttribute('datetime', '2026-03-14');
  await expect(app.memories.row('Started learning the cello')).toHaveCount(0);

  await app.memories.delete('Flight to Oslo booked for June');
  const toast = app.toasts.filter({ hasText: 'Memory deleted' });
  await expect(toast).toBeVisible();
  await toast.getByTestId('toast-action').click();
  await expect(app.memories.row('Flight to Oslo booked for June')).toBeVisible();

  await app.memories.delete('Started learning the viola');
  // The undo offer goes away on its own after a few seconds; the delete stands.
  await expect(app.toasts.filter({ hasText: 'Memory deleted' })).toBeHidden({ timeout: 60_000 });

  await app.page.reload();
  await app.ready();
  await expect(app.memories.rows).toHaveCount(1);
  await expect(app.memories.contentCells).toHaveText(['Flight to Oslo booked for June']);
  const stored = (await host.call('memories.list', { persona })).items;
  expect(stored.map((m) => [m.content, m.category, m.importance])).toEqual([['Flight to Oslo booked for June', 'travel', 8]]);
  await expect(app.errorToasts()).toHaveCount(0);
});

test('search shows each hit with its score breakdown, the same numbers recall returns', async ({ host, persona, openApp }) => {
  await host.call('memories.write', { persona, content: 'The quarterly tax return is due in April', category: 'finance', importance: 8 });
  await host.call('memories.write', { persona, content: 'Dinner with Ana at the Lebanese place', category: 'social', importance: 4 });
  await host.call('memories.write', { persona, content: 'Paid the tax advisor invoice', category: 'finance', importance: 5 });
  // The screen and the recall call below must score the same vectors: wait until the built-in model has
  // embedded all three (a vector arriving between the two would change the cosine and the final score).
  await expect
    .poll(async () => (await host.call('memories.list', { persona })).items.map((m) => m.embeddingStatus), { timeout: 60_000 })
    .toEqual(['current', 'current', 'current']);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');

  await app.page.keyboard.press('/');
  await expect(app.memories.search).toBeFocused();
  await app.memories.searchFor('when is my tax return due');
  await expect(app.memories.hits.first()).toBeVisible();
  const first = app.memories.hits.first();
  await expect(first.getByTestId('hit-content')).toHaveText('The quarterly tax return is due in April');
  // Why, in words first: the matched words, importance, when it was saved; no ids anywhere.
  await expect(first.getByTestId('why-recalled')).toContainText('matched tax, return, due');
  await expect(first.getByTestId('why-recalled')).toContainText('importance 8');
  await expect(first.getByTestId('why-recalled')).toContainText('saved today');
  await expect(app.memories.view).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
  await expect(app.memories.view).not.toContainText('imp=');
  // Recall also weighs importance and recency, so an unrelated memory may be recalled: it sits apart from the
  // matches, among the closest in meaning or the weaker matches.
  const unrelated = app.memories.hit('Dinner with Ana');
  if ((await unrelated.count()) > 0) {
    const apart = app.page.getByTestId('closest-matches').or(app.page.getByTestId('weaker-matches'));
    await expect(apart.getByTestId('hit-content').filter({ hasText: 'Dinner with Ana' })).toHaveCount(1);
  }
  // Every memory sharing a word with the question is counted, and said so.
  await expect(app.page.getByTestId('search-count')).toContainText(/memor(y|ies) (that )?match(es)? by words or meaning/);
  await expect(app.memories.count).toHaveText(/^\d+ match(es)?$/);

  // The numbers on screen are recall's. On a loaded machine the query's embedding can miss its 1.5 s
  // deadline, and that one search (or recall call) ranks by text alone: search again until both had it.
  const numbers = async () => {
    await app.memories.searchFor('when is my tax return due');
    const shown = await app.memories.breakdown(app.memories.hits.first());
    const [top] = await host.call('recall', { persona, query: 'when is my tax return due', limit: 50, kinds: ['memory'] });
    const s = top!.score;
    const expected = {
      text: s.text.toFixed(3),
      cosine: s.cosine === null ? '—' : s.cosine.toFixed(3),
      importance: s.importance!.toFixed(3),
      recency: s.recency!.toFixed(3),
      final: s.final.toFixed(3),
    };
    return { shown, expected };
  };
  const agree = async () => {
    const { shown, expected } = await numbers();
    return shown.cosine !== '—' && JSON.stringify(shown) === JSON.stringify(expected);
  };
  await expect.poll(agree, { timeout: 60_000 }).toBe(true);
  const { shown, expected } = await numbers();
  expect(shown).toEqual(expected);
  expect(Number(shown.text)).toBeGreaterThan(0);
  await app.screenshot('memory-search');

  await app.memories.clearSearch();
  await expect(app.memories.rows).toHaveCount(3);

  // A hit can be deleted right there.
  await app.memories.searchFor('tax advisor invoice');
  await app.memories.hit('Paid the tax advisor invoice').getByTestId('hit-delete').click();
  await expect(app.memories.hit('Paid the tax advisor invoice')).toHaveCount(0);
  await expect.poll(async () => (await host.call('memories.list', { persona })).total).toBe(2);

  // And replaced by a newer fact: the old one stays, marked as superseded by the new one.
  await app.memories.searchFor('quarterly tax return');
  await app.memories.hit('The quarterly tax return is due in April').getByTestId('hit-replace').click();
  const editor = app.page.getByTestId('memory-replace-editor');
  await editor.getByTestId('memory-content-input').fill('The quarterly tax return is due in May this year');
  await editor.getByTestId('memory-save').click();
  await expect(editor).toBeHidden();
  await expect(app.memories.row('The quarterly tax return is due in April')).toHaveAttribute('data-superseded', 'true');
  await expect(app.memories.row('The quarterly tax return is due in April').getByTestId('superseded-by')).toContainText('due in May this year');
});

test('filters by category, importance range, day range and origin', async ({ host, persona, openApp }) => {
  const write = (content: string, category: string, importance: number, day: string, origin: 'manual' | 'explicit' = 'manual') =>
    host.call('memories.write', { persona, content, category, importance, day, origin });
  await write('Ran 10 km along the river', 'health', 6, '2026-05-02');
  await write('Signed the lease for the new flat', 'home', 9, '2026-05-10', 'explicit');
  await write('Dentist appointment moved to Friday', 'health', 3, '2026-06-01');
  await write('Painted the kitchen blue', 'home', 5, '2026-06-20');
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  await expect(app.memories.rows).toHaveCount(4);

  await app.memories.filter('category').selectOption('health');
  await expect(app.memories.rows).toHaveCount(2);
  await expect(app.memories.contentCells).toHaveText(['Dentist appointment moved to Friday', 'Ran 10 km along the river']);

  await app.memories.filter('importance-min').fill('5');
  await expect(app.memories.rows).toHaveCount(1);
  await expect(app.memories.contentCells).toHaveText(['Ran 10 km along the river']);

  await app.page.getByTestId('filter-clear').click();
  await expect(app.memories.rows).toHaveCount(4);

  await app.memories.filter('day-from').fill('2026-05-05');
  await app.memories.filter('day-to').fill('2026-06-10');
  await expect(app.memories.rows).toHaveCount(2);
  await expect(app.memories.contentCells).toHaveText(['Dentist appointment moved to Friday', 'Signed the lease for the new flat']);

  await app.page.getByTestId('filter-clear').click();
  await app.memories.filter('origin').selectOption('explicit');
  await expect(app.memories.rows).toHaveCount(1);
  await expect(app.memories.contentCells).toHaveText(['Signed the lease for the new flat']);

  await app.memories.filter('importance-max').fill('2');
  await expect(app.page.getByTestId('memories-empty')).toContainText('No memory matches these filters');
  await expect(app.errorToasts()).toHaveCount(0);
});

test('search filters narrow the recall itself: a category filter finds memories beyond the first 50', async ({ host, persona, openApp }) => {
  // 60 important "deploy" memories at work and 3 unimportant ones in the garden: an unfiltered search's best 50 are all work.
  await Promise.all(
    Array.from({ length: 60 }, (_, i) =>
      host.call('memories.write', { persona, content: `Deploy freeze for release ${i}`, category: 'work', importance: 9 }),
    ),
  );
  for (const [i, what] of ['sprinkler', 'hedge trimmer', 'compost bin'].entries()) {
    await host.call('memories.write', { persona, content: `Deploy the ${what} plan`, category: 'garden', importance: 2, day: `2026-04-0${i + 1}` });
  }
  // The screen and the recall call below must rank the same vectors: wait until the built-in model has
  // embedded all 63 (on a loaded machine a search made while some were embedded ranked a garden plan
  // among the best 50).
  await expect
    .poll(async () => (await host.call('memories.list', { persona, limit: 100 })).items.filter((m) => m.embeddingStatus !== 'current').length, { timeout: 90_000 })
    .toBe(0);
  const unfiltered = await host.call('recall', { persona, query: 'deploy', limit: 50, kinds: ['memory'] });
  expect(unfiltered.filter((h) => h.memory?.category === 'garden')).toHaveLength(0);

  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  await app.memories.searchFor('deploy');
  await expect(app.memories.hits).toHaveCount(50);
  // The count says what it counts: every memory with the word, not the 50 shown.
  await expect(app.page.getByTestId('search-count')).toContainText('The best 50 of 63 memories that match by words or meaning.');
  await expect(app.memories.count).toHaveText('63 matches');
  await expect(app.memories.hit('Deploy the sprinkler plan')).toHaveCount(0);

  await app.memories.filter('category').selectOption('garden');
  await expect(app.memories.hits).toHaveCount(3);
  // (Their order depends on their vectors, which the embedding job may or may not have written yet.)
  const shownContents = async () => (await app.page.getByTestId('hit-content').allTextContents()).sort();
  await expect.poll(shownContents).toEqual(['Deploy the compost bin plan', 'Deploy the hedge trimmer plan', 'Deploy the sprinkler plan']);
  await expect(app.page.getByTestId('search-count')).toHaveText('3 memories match by words or meaning within the filters.');
  await expect(app.memories.count).toHaveText('3 matches');

  // Filters combine and still search the whole memory: one of the three is in April's first two days.
  await app.memories.filter('day-to').fill('2026-04-02');
  await expect.poll(shownContents).toEqual(['Deploy the hedge trimmer plan', 'Deploy the sprinkler plan']);

  await app.page.getByTestId('filter-clear').click();
  await expect(app.memories.hits).toHaveCount(50);
  await expect(app.memories.count).toHaveText('63 matches');
  await expect(app.errorToasts()).toHaveCount(0);
});

test('a very long memory is clamped with a way to read it all; Hebrew reads right to left', async ({ host, persona, openApp }) => {
  const long = Array.from({ length: 400 }, (_, i) => `Line ${i} of the meeting notes, with enough words to wrap.`).join('\n').slice(0, 20_000);
  await host.call('memories.write', { persona, content: long, category: 'work' });
  await host.call('memories.write', { persona, content: 'פגישה עם רונית ביום שלישי', category: 'social' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  const row = app.memories.row('Line 0 of the meeting notes');
  const text = row.getByTestId('memory-content');
  const clampedHeight = (await text.boundingBox())!.height;
  expect(clampedHeight).toBeLessThan(200);
  await row.getByTestId('memory-expand').click();
  await expect(row.getByTestId('memory-expand')).toHaveText('Show less');
  expect((await text.boundingBox())!.height).toBeGreaterThan(clampedHeight * 5);
  await row.getByTestId('memory-expand').click();
  await expect(row.getByTestId('memory-expand')).toHaveText(`Show all (${long.length.toLocaleString('en-US')} characters)`);

  // Runs in the page; this file is compiled without the DOM library.
  const direction = (l: typeof text) =>
    l.evaluate((el) => (globalThis as unknown as { getComputedStyle(e: unknown): { direction: string } }).getComputedStyle(el).direction);
  expect(await direction(app.memories.row('פגישה עם רונית').getByTestId('memory-content'))).toBe('rtl');
  expect(await direction(text)).toBe('ltr');
});

test.describe('on a host of its own', () => {
  test.use({ sharedHost: false });

  test('the list pages through a long history as it scrolls', async ({ host, persona, openApp }) => {
    // More than two pages of 200: the rest must arrive while scrolling, not up front. Written in one
    // import (a dated list) rather than 450 calls: the paging is the subject, not how they were written.
    const logbook = Array.from({ length: 450 }, (_, i) => `- 2026-01-${String((i % 28) + 1).padStart(2, '0')}: Logbook entry ${i}`).join('\n');
    expect((await host.call('memories.importFrom', { persona, format: 'text', text: logbook })).added).toBe(450);
    const app = new AppPage(await openApp());
    await app.ready();
    await app.go('memories');
    await expect(app.memories.count).toContainText('450 memories · 200 loaded');
    // A search hit from beyond the loaded pages still opens its editor on screen.
    await app.memories.searchFor('Logbook entry 0');
    await app.memories.hit(/^Logbook entry 0$/).getByTestId('hit-edit').click();
    const editor = app.page.getByTestId('focused-memory').getByTestId('memory-content-input');
    await expect(editor).toHaveValue('Logbook entry 0');
    await editor.press('Escape');
    await expect(editor).toBeHidden();
    await app.page.getByTestId('focused-close').click();
    // Only what is on screen is in the DOM.
    expect(await app.memories.rows.count()).toBeLessThan(40);
    const list = app.page.getByTestId('memory-list');
    for (let i = 0; i < 30; i++) {
      await list.evaluate((el) => el.scrollBy(0, 4000));
      if ((await app.memories.count.innerText()) === '450 memories') break;
      await app.page.waitForTimeout(100);
    }
    await expect(app.memories.count).toHaveText('450 memories');
    await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect(app.page.locator('[data-testid="memory-day"][datetime="2026-01-01"]').last()).toBeVisible();
  });
});

test('memories written elsewhere appear live, and their embedding status follows', async ({ host, persona, openApp }) => {
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  await expect(app.page.getByTestId('memories-empty')).toBeVisible();

  // As if the assistant saved it during a chat: no reload, the pushed event brings it.
  const m = await host.call('memories.write', { persona, content: 'Allergic to penicillin', category: 'health', importance: 10, origin: 'explicit' });
  const row = app.memories.row('Allergic to penicillin');
  await expect(row).toBeVisible();
  // The built-in embedder runs in the background; the badge turns from pending to embedded by itself.
  await expect(row.getByTestId('embedding-status')).toHaveAttribute('data-status', 'current', { timeout: 60_000 });

  await host.call('memories.update', { id: m.id, content: 'Allergic to penicillin and amoxicillin' });
  await expect(app.memories.row('Allergic to penicillin and amoxicillin')).toBeVisible();
  await host.call('memories.delete', { id: m.id });
  await expect(app.memories.rows).toHaveCount(0);
  await expect(app.personas.counts(persona)).toContainText('0 memories');
});

test('search by meaning shows the closest memories ranked, with their strength in words, never "nothing"', async ({ host, persona, openApp }) => {
  for (const content of [
    'Moved to Lyon in March for the new job, a flat near the Saône',
    'Started learning the cello with a weekly teacher',
    'The quarterly tax return is due at the end of April',
    'Prefers window seats on long flights',
  ])
    await host.call('memories.write', { persona, content });
  // Compared by meaning only once the built-in model has embedded them all.
  await expect
    .poll(async () => (await host.call('memories.list', { persona })).items.map((m) => m.embeddingStatus), { timeout: 60_000 })
    .toEqual(['current', 'current', 'current', 'current']);
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');

  // No word of the question is in any memory: the closest in meaning come first, ranked, each saying how close.
  await app.memories.searchFor('where do I live');
  await expect(app.page.getByTestId('search-empty')).toHaveCount(0);
  await expect(app.page.getByTestId('search-count')).toContainText('The closest in meaning, best first');
  const closest = app.page.getByTestId('closest-matches').getByTestId('search-hit');
  await expect(closest.first().getByTestId('hit-content')).toContainText('Moved to Lyon');
  await expect(closest.first().getByTestId('hit-strength')).toHaveText(/^(strong|fair|weak) match$/);
  await expect(closest.first()).toBeInViewport();
  expect(await closest.count()).toBeGreaterThan(1);

  await app.memories.searchFor('musical instrument');
  await expect(app.memories.hits.first().getByTestId('hit-content')).toContainText('cello');
  await expect(app.memories.hits.first().getByTestId('hit-strength')).toHaveText(/^(strong|fair|weak) match$/);
  await expect(app.memories.hits.first()).toBeInViewport();
});

test('Replace… dates the newer fact today unless a day is picked', async ({ host, persona, openApp }) => {
  await host.call('memories.write', { persona, content: 'Lives in Lyon', category: 'home', day: '2025-11-03' });
  const app = new AppPage(await openApp());
  await app.ready();
  await app.go('memories');
  const old = app.memories.row('Lives in Lyon');
  await old.hover();
  await old.getByTestId('memory-replace').click();
  const editor = app.page.getByTestId('memory-replace-editor');
  // Today as the page's calendar has it (the Swedish format is YYYY-MM-DD).
  const today = await app.page.evaluate(() => new Date().toLocaleDateString('sv'));
  await expect(editor.getByTestId('memory-day-input')).toHaveValue(today);
  await editor.getByTestId('memory-content-input').fill('Moved to Grenoble');
  await editor.getByTestId('memory-save').click();
  await expect(editor).toBeHidden();
  await expect(app.memories.row('Moved to Grenoble').getByTestId('memory-day')).toHaveAttribute('datetime', today);
  const stored = (await host.call('memories.list', { persona, filters: {} })).items.map((m) => [m.content, m.day]);
  expect(stored).toEqual(expect.arrayContaining([['Moved to Grenoble', today], ['Lives in Lyon', '2025-11-03']]));
});
