/**
 * Shared by the browser tests (test/browser/*.test.ts): a static server for the built page (dist/,
 * made by `npm run build`) and the machine's headless Chromium (Debian's, through playwright-core).
 */
import { createServer, type Server } from 'node:http';
import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** No sandbox (root in a container), no GPU, and none of Chromium's own calls home. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webmanifest': 'application/manifest+json',
  '.json': 'application/json',
  '.map': 'application/json',
  '.sql': 'text/plain; charset=utf-8',
  '.ibd': 'application/octet-stream',
};

/**
 * Serves `root` on a free loopback port, as a static host would: files only, no headers of policy
 * (the page's Content-Security-Policy is the <meta> in its index.html).
 */
export function serveDist(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'Content-Type': MIME[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' });
        res.end(body);
      },
      () => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'),
    );
  });
  return new Promise((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      ok({ server, url: `http://127.0.0.1:${port}/` });
    });
  });
}

/** Headless Chromium with a fresh profile in `userDataDir`, downloads accepted. */
export function launchChromium(userDataDir: string): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (set CHROMIUM_PATH).`);
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    acceptDownloads: true,
    viewport: { width: 1360, height: 900 },
    colorScheme: 'light',
  });
}
