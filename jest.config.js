// Every package's jest suite in one run (`npm test` uses it), so one pool of workers takes the
// test files of all packages, slowest first, instead of one package after the other.
module.exports = {
  projects: ['<rootDir>/packages/core', '<rootDir>/packages/persistence-kysely', '<rootDir>/apps/api'],
};
