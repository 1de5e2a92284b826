// Renders the installable app's icons (web/public/*.png) from the SVG below with Chromium, the
// favicon's mark at app-icon sizes. The PNGs are committed; run this again only to change them:
//   node web/icons/render-icons.mjs
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const ACCENT = '#3b6fd8';
/** the favicon's "L", on a 512 grid */
const MARK = '<path d="M160 96v320h192" stroke="#fff" stroke-width="64" stroke-linejoin="round" fill="none"/>';

/** rounded corners for "any" use; full bleed, the mark shrunk into the safe circle, for maskable and Apple's own mask */
const svg = ({ rounded, scale }) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512" width="100%" height="100%">
<rect width="512" height="512" rx="${rounded ? 96 : 0}" fill="${ACCENT}"/>
<g transform="translate(256 256) scale(${scale}) translate(-240 -272)">${MARK}</g></svg>`;

const ICONS = [
  { file: 'icon-192.png', size: 192, rounded: true, scale: 1 },
  { file: 'icon-512.png', size: 512, rounded: true, scale: 1 },
  { file: 'icon-maskable-512.png', size: 512, rounded: false, scale: 0.75 },
  { file: 'apple-touch-icon.png', size: 180, rounded: false, scale: 0.85 },
];

const out = join(import.meta.dirname, '..', 'public');
const browser = await chromium.launch({ executablePath: process.env.LOOM_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await page.setContent(`<body style="margin:0">${svg(icon)}</body>`);
    await page.screenshot({ path: join(out, icon.file), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
