// ESLint: typescript-eslint's type-aware rules over every TypeScript file of the workspace.
// Layout is Biome's job (biome.json); nothing here is about formatting.
import eslintComments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/.tools/**', 'bench/results/**'],
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: './tsconfig.workspace.json', tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore names what is left out on purpose: a destructured field dropped
      // from a copy, a parameter an interface hands over but this implementation does not need.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Every `async` function without an `await` here implements a Promise-returning port or
      // library interface (repositories, migrations, blob stores, CLI commands); `async` is
      // what turns a synchronous throw into a rejection the caller can catch.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // A module adds its repositories to the core's `Repositories` by declaration merging,
      // `interface Repositories extends CustomerRepositories {}`: an empty interface with one
      // base is how that is said (a type alias cannot merge).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
    },
  },
  {
    // Directive comments, in every file: each `eslint-disable` says why after `--`, so the next
    // reader can judge whether the reason still holds (the `eslint-enable` closing it needs none);
    // a disable names its rules (no bare `eslint-disable`) and is closed by an enable of the same.
    // One left with nothing to disable is an error already (`reportUnusedDisableDirectives`
    // above; the plugin's own `no-unused-disable` is deprecated in its favour).
    extends: [eslintComments.recommended],
    rules: {
      '@eslint-community/eslint-comments/require-description': ['error', { ignore: ['eslint-enable'] }],
    },
  },
  {
    // Tests read response bodies that supertest types as `any` (JSON off the wire). Checking
    // those bodies is the tests' job, done by their assertions, not by the type system, so the
    // `no-unsafe-*` family and template-literal typing are off there; everything else applies,
    // floating promises above all.
    files: ['**/test/**/*.ts', '**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
    },
  },
  {
    // Plain JavaScript (configs, scripts): the syntax rules only; they have no types to check.
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
