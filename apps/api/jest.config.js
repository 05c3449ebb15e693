module.exports = {
  ...require('../../tooling/config/jest.preset.js'),
  // Every response a test receives is checked against the OpenAPI document (test/support/response-conformance.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/response-conformance-setup.ts'],
};
