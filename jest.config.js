// Every package's jest suite in one run (`npm test` uses it), so one pool of workers takes the
// test files of all packages, slowest first, instead of one package after the other.
module.exports = {
  // Global options are not read from the projects' configs: the preset's timeout again (see there).
  testTimeout: require('./tooling/config/jest.preset.js').testTimeout,
  testSequencer: require.resolve('./tooling/config/jest-sequencer.js'),
  projects: [
    '<rootDir>/packages/core',
    '<rootDir>/packages/persistence-kysely',
    '<rootDir>/packages/client',
    '<rootDir>/apps/api',
  ],
};
