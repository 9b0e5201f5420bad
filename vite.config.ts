import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

// The page is fully static: `base: './'` makes every asset URL relative, so dist/ works from any
// path (a sub-folder, a file share, a CDN prefix). The decoder runs in an ES-module worker.
export default defineConfig({
  base: './',
  plugins: [svelte()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: true,
  },
});
