// Renders the app icons (public/icons/*.svg) to the PNG sizes the web app manifest lists, with the
// machine's Chromium (headless, through playwright-core). Run once after changing an icon:
//   node scripts/make-icons.mjs            (CHROMIUM_PATH overrides /usr/bin/chromium)
// The PNGs are committed; the build does not run this.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const dir = fileURLToPath(new URL('../public/icons/', import.meta.url));
const jobs = [
  { svg: 'icon.svg', out: 'icon-192.png', size: 192 },
  { svg: 'icon.svg', out: 'icon-512.png', size: 512 },
  { svg: 'maskable.svg', out: 'maskable-512.png', size: 512 },
  { svg: 'icon.svg', out: 'apple-touch-icon.png', size: 180 },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  for (const job of jobs) {
    const page = await browser.newPage({ viewport: { width: job.size, height: job.size }, deviceScaleFactor: 1 });
    const svg = readFileSync(dir + job.svg, 'utf8');
    await page.setContent(
      `<html><body style="margin:0;background:transparent"><img style="display:block;width:${job.size}px;height:${job.size}px" src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}"></body></html>`,
    );
    await page.screenshot({ path: dir + job.out, omitBackground: true });
    await page.close();
    console.log(`public/icons/${job.out}`);
  }
} finally {
  await browser.close();
}
