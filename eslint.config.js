// ESLint flat config: typescript-eslint's recommended rules for .ts/.js, eslint-plugin-svelte's
// recommended rules (with the TypeScript parser inside <script lang="ts">) for .svelte files.
import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import svelteParser from 'svelte-eslint-parser';
import globals from 'globals';

export default defineConfig(
  {
    ignores: ['dist/**', 'dist-cli/**', 'dist-lib/**', 'node_modules/**', 'test-results/**', '.cache/**', 'coverage/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  svelte.configs['flat/recommended'],
  {
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts', '**/*.svelte.js'],
    languageOptions: {
      parser: svelteParser,
      parserOptions: {
        parser: tseslint.parser,
        extraFileExtensions: ['.svelte'],
      },
    },
  },
  {
    files: ['workers/**/*.ts'],
    languageOptions: { globals: { ...globals.worker } },
  },
);
