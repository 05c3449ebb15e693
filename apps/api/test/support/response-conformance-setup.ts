import { takeResponseViolations } from './response-conformance';

// Runs in every API test file: a test that received a response the OpenAPI document does not
// describe fails here, with the operation and the property named.
afterEach(async () => {
  const violations = await takeResponseViolations();
  if (violations.length > 0) {
    throw new Error(`responses off the OpenAPI document:\n  ${[...new Set(violations)].join('\n  ')}`);
  }
});
