import type { Page } from 'playwright-core';
import { until } from './wait';

/** The tab strip's rows top to bottom (a virtual list places each by its own transform): `# name` for a group's header, else the session's id. */
export const stripRows = (page: Page): Promise<(string | undefined)[]> =>
  page
    .locator('.tabs-rows > li')
    .evaluateAll((rows) =>
      rows
        .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)
        .map((li) =>
          li.classList.contains('tabs-group')
            ? `# ${li.querySelector('.tabs-group-name')?.textContent}`
            : (li.querySelector('.tab')?.getAttribute('data-session') ?? undefined),
        ),
    );

/** Until the strip shows exactly these rows. */
export const stripShows = (page: Page, rows: string[], what: string) => until(async () => JSON.stringify(await stripRows(page)) === JSON.stringify(rows), what);
