// Svelte's own config, read by vite-plugin-svelte (the build), svelte-check and eslint-plugin-svelte.
// Every component is written with runes; <script lang="ts"> needs no preprocessing in Svelte 5, and
// vitePreprocess covers the <style> blocks (plain CSS today).
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/vite-plugin-svelte').SvelteConfig} */
export default {
  preprocess: vitePreprocess(),
  compilerOptions: { runes: true },
};
