// typescript-eslint with its type-checked rules over src/, test/, scripts/, bench/ and packages/;
// formatting is Prettier's (eslint-config-prettier turns off the rules that would disagree with it).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '**/dist/', 'build/', 'coverage/', 'test-results/', 'generated/openapi.d.ts'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: { allowDefaultProject: ['*.js', '*.mjs'] }, tsconfigRootDir: import.meta.dirname },
      globals: globals.node,
    },
  },
  {
    rules: {
      // Storage methods are async although SQLite answers at once: one Promise interface for both
      // backends, and a throw inside becomes a rejection, as callers expect.
      '@typescript-eslint/require-await': 'off',
      // Express tells error handlers by their four parameters, so an unused one must still be there.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // The contract tester is a package of its own, for any API: nothing outside its src/ but its
    // dependencies (the pet store is only its tests' subject) and the shared OpenAPI reader,
    // packages/openapi-document, which its build bundles. A path that climbs past src/ starts with
    // one ../ more than the module's depth below src/.
    files: ['packages/contract-tester/src/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./openapi-document/src/)',
              message: 'the tester imports nothing from outside its package: give it its own module',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/contract-tester/src/*/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./(?!\\.\\./openapi-document/src/)',
              message: 'the tester imports nothing from outside its package: give it its own module',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/contract-tester/src/*/*/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./\\.\\./\\.\\./(?!\\.\\./openapi-document/src/)',
              message: 'the tester imports nothing from outside its package: give it its own module',
            },
          ],
        },
      ],
    },
  },
  {
    // The shared OpenAPI reader is bundled into the server and the published tester: it imports
    // nothing but its own modules (and Node).
    files: ['packages/openapi-document/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^\\.\\./', message: 'the shared OpenAPI reader imports nothing from outside its package' }] },
      ],
    },
  },
  {
    // The typed client is a package of its own, with no dependencies: nothing outside its src/ but
    // the types and tables generated from the spec, and what its build bundles.
    files: ['packages/client/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\./\\.\\./generated/)',
              message: 'the client imports nothing from outside its package but generated/',
            },
            {
              regex: '^(?!\\.|openapi-fetch$|web-linking$)',
              message: 'the client has no dependencies: only openapi-fetch and the private web-linking, which its build bundles',
            },
          ],
        },
      ],
    },
  },
  {
    // Plain JavaScript (scripts, the benchmark, examples): no types to check against.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    files: ['public/**/*.js'],
    languageOptions: { globals: globals.browser },
  },
  prettier,
);
