import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import layerImports from './eslint-rules/layer-imports.js';
import noCrossFeatureImports from './eslint-rules/no-cross-feature-imports.js';

/** Kysely query builders: SQL lives in server/repositories (and server/db), nowhere else (docs/architecture.md). */
const KYSELY_BUILDERS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom'];

export default tseslint.config(
  { ignores: ['node_modules', 'web/dist', 'dist', 'data', 'test-artifacts', 'tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // The service worker and its logic are plain scripts served as they are (web/public).
  { files: ['web/public/**/*.js'], languageOptions: { globals: { ...globals.serviceworker } } },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
      // Logging goes through pino; a stray console.log could leak a token.
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['tests/**', 'bench/**', 'scripts/smoke-node.mjs', 'server/db/migrate-cli.ts', 'tests/helpers/fake-discord/cli.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    // Features never import each other: what two of them share goes to web/src/lib or web/src/components.
    files: ['web/src/features/**'],
    plugins: { chime: { rules: { 'no-cross-feature-imports': noCrossFeatureImports } } },
    rules: { 'chime/no-cross-feature-imports': 'error' },
  },
  {
    files: ['server/**', 'bot/**'],
    ignores: ['server/repositories/**', 'server/db/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression > MemberExpression.callee[property.name=/^(${KYSELY_BUILDERS.join('|')})$/]`,
          message: 'Kysely query builders belong in server/repositories/ (the only place with SQL): call a repository function instead.',
        },
      ],
    },
  },
  {
    // Layers point one way (docs/architecture.md "Layers"). The block for server/lib comes second:
    // for its files it replaces the server-wide options.
    files: ['server/**'],
    plugins: { layers: { rules: { 'layer-imports': layerImports } } },
    rules: { 'layers/layer-imports': ['error', { forbid: ['bot', 'web'], because: 'server/ never imports bot/ or web/; what both need lives in server/' }] },
  },
  {
    files: ['server/lib/**'],
    rules: { 'layers/layer-imports': ['error', { allow: ['server/lib'], because: 'server/lib/ imports nothing above it; a helper that needs a service or a repository belongs beside them' }] },
  },
);
