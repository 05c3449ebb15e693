// Shared jest preset: TypeScript through ts-jest in transpile-only mode (type errors are
// caught by `pnpm typecheck`, not at test time), workspace packages mapped to their sources
// so tests never depend on a stale build.
const path = require('node:path');
const root = path.resolve(__dirname, '../..');

module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: path.join(root, 'tooling/config/tsconfig.jest.json') }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@brand/core$': path.join(root, 'packages/core/src/index.ts'),
    '^@brand/core/testing$': path.join(root, 'packages/core/src/testing/index.ts'),
    '^@brand/persistence-kysely$': path.join(root, 'packages/persistence-kysely/src/index.ts'),
  },
  // A timeout catches a hang, never a slow machine: under load a correct test may take many
  // times its idle duration, and nothing in the suite may depend on wall-clock speed.
  testTimeout: 60_000,
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
};
