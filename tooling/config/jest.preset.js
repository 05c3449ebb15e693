// Shared jest preset: TypeScript transpiled by SWC, file by file (type errors are caught by
// `pnpm typecheck`, not at test time; on a cold cache SWC costs a third of what ts-jest did),
// workspace packages mapped to their sources so tests never depend on a stale build.
const path = require('node:path');
const root = path.resolve(__dirname, '../..');

module.exports = {
  // jest's Node environment and module runtime, except that the test files one worker runs for one
  // project share one module registry (jest-shared-modules.js): the app is loaded once per worker.
  testEnvironment: path.join(__dirname, 'jest-shared-environment.js'),
  runtime: path.join(__dirname, 'jest-shared-runtime.js'),
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          // What tsconfig.base.json asks of tsc: legacy decorators with their design-type
          // metadata (class-validator, class-transformer), ES2022 class fields.
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
          target: 'es2022',
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@brand/core$': path.join(root, 'packages/core/src/index.ts'),
    '^@brand/core/testing$': path.join(root, 'packages/core/src/testing/index.ts'),
    '^@brand/persistence-kysely$': path.join(root, 'packages/persistence-kysely/src/index.ts'),
    '^@brand/persistence-kysely/testing$': path.join(root, 'packages/persistence-kysely/src/testing/index.ts'),
    '^@brand/client$': path.join(root, 'packages/client/src/index.ts'),
  },
  // A timeout catches a hang, never a slow machine: under load a correct test may take many
  // times its idle duration, and nothing in the suite may depend on wall-clock speed.
  testTimeout: 60_000,
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
};
