import { defineConfig, type Plugin } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { VitePWA } from 'vite-plugin-pwa';

// The page's Content-Security-Policy is a <meta> in index.html (a static page has no headers). The dev
// server (`npm run dev`) injects CSS as <style> elements for hot reload, which that policy forbids:
// there, and only there, style-src also allows inline styles. Builds keep the policy as written.
function devInlineStyles(): Plugin {
  return {
    name: 'ibd-reader:dev-inline-styles',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'"),
  };
}

// The page is fully static: `base: './'` makes every asset URL relative, so dist/ works from any
// path (a sub-folder, a file share, a CDN prefix). The decoder runs in ES-module workers.
//
// Offline: vite-plugin-pwa builds our service worker (src/sw/sw.ts) and injects into it the list of
// files it precaches on the first visit (HTML, JS and worker chunks, CSS, icons, the bundled
// sample), so the page works with the network off afterwards. It caches only the app's own files:
// the user's files are never sent anywhere, so there is nothing of theirs to cache. The same worker
// streams exports to the browser's downloads (src/sw/download-stream.ts).
export default defineConfig({
  base: './',
  plugins: [
    devInlineStyles(),
    svelte(),
    VitePWA({
      registerType: 'autoUpdate',
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      // src/ui/app/pwa.svelte.ts registers it (and reports "ready offline" on the page).
      injectRegister: false,
      manifest: {
        name: 'ibd-reader — read InnoDB .ibd files',
        short_name: 'ibd-reader',
        description:
          'Read the rows of MySQL / MariaDB InnoDB table files (.ibd) in your browser. Nothing is uploaded; works offline.',
        lang: 'en',
        start_url: './',
        scope: './',
        display: 'standalone',
        background_color: '#f5f7fa',
        theme_color: '#1f5f8b',
        categories: ['developer', 'utilities'],
        icons: [
          { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: 'icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: 'icons/icon.svg', sizes: 'any', type: 'image/svg+xml', purpose: 'any' },
        ],
      },
      injectManifest: {
        // The worker is registered as a classic script (registerSW's production default), so it is
        // built as one self-contained IIFE, with no import/export statements left in it.
        rollupFormat: 'iife',
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,ibd,sql}'],
        // The sample table and the decoder chunks are larger than workbox's 2 MiB default allows.
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
      },
    }),
  ],
  // Rolldown's plugin-timing warning says only how busy the machine was (it fires when the build
  // shares a loaded 2-core machine with the tests): it is off, so a warning in the build means something.
  worker: { format: 'es', rolldownOptions: { checks: { bundlerTimings: false } } },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: true,
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
});
