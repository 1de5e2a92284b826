import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestKernel } from './kernel';

// Debian's Chromium driven by playwright-core, started by the test itself (playwright gives it a
// fresh profile). Each page records
// console errors and uncaught exceptions, so a test can assert that none happened.

export const CHROMIUM = process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium';

export interface TestBrowser {
  browser: Browser;
  /** a fresh signed-in page at `path` of the kernel's dashboard (the `?token=` link, then the route) */
  open(kernel: TestKernel, path?: string, options?: { colorScheme?: 'light' | 'dark' }): Promise<TestPage>;
  close(): Promise<void>;
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** console errors and page errors seen so far */
  errors: string[];
}

export async function startBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    browser,
    async open(kernel, path = '/', options = {}) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: options.colorScheme ?? 'light' });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
      page.on('pageerror', (e) => errors.push(String(e)));
      const url = new URL(path, kernel.url);
      url.searchParams.set('token', kernel.token);
      await page.goto(url.toString());
      return { page, context, errors };
    },
    async close() {
      await browser.close();
    },
  };
}
