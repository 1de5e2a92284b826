import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import type { TestKernel } from './kernel';

// Debian's Chromium driven by playwright-core, started by the test itself (playwright gives it a
// fresh profile). Each page records
// console errors and uncaught exceptions, so a test can assert that none happened.

export const CHROMIUM = process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium';

export interface TestBrowser {
  browser: Browser;
  /** a fresh signed-in page at `path` of the kernel's dashboard (the `?token=` link, then the route); 1440×900, or a phone's 390×844 */
  open(kernel: TestKernel, path?: string, options?: { colorScheme?: 'light' | 'dark'; phone?: boolean }): Promise<TestPage>;
  close(): Promise<void>;
}

export interface TestPage {
  page: Page;
  context: BrowserContext;
  /** console errors and page errors seen so far */
  errors: string[];
}

const DESKTOP = { viewport: { width: 1440, height: 900 } };
/** a phone's screen in CSS pixels, touch, and a mobile browser's viewport handling */
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** attempts at launching Chromium, and how long each may take before it is killed */
const LAUNCH_ATTEMPTS = 3;
const LAUNCH_TIMEOUT_MS = 20_000;
/** the timeout for a hook that calls startBrowser: every attempt, and some to spare */
export const BROWSER_START_TIMEOUT_MS = LAUNCH_ATTEMPTS * LAUNCH_TIMEOUT_MS + 10_000;

// A launch usually takes one or two seconds, but one in CI once hung past 30 s on a busy
// machine: kill a launch that hangs and try again, rather than fail the whole file.
async function launchChromium(): Promise<Browser> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await chromium.launch({
        executablePath: CHROMIUM,
        headless: true,
        timeout: LAUNCH_TIMEOUT_MS,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
      });
    } catch (error) {
      if (attempt === LAUNCH_ATTEMPTS) throw error;
      console.warn(`Chromium launch ${attempt} of ${LAUNCH_ATTEMPTS} failed, trying again: ${String(error).split('\n')[0]}`);
    }
  }
}

export async function startBrowser(): Promise<TestBrowser> {
  const browser = await launchChromium();
  return {
    browser,
    async open(kernel, path = '/', options = {}) {
      const screen = options.phone ? PHONE : DESKTOP;
      const context = await browser.newContext({ ...screen, colorScheme: options.colorScheme ?? 'light' });
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
