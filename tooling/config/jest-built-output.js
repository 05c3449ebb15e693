// The test files that run the built output (`node dist/server.js`, a built module, `pnpm pack`).
//
// `npm test` starts jest beside the build (tooling/scripts/test.sh) rather than after it: jest runs
// every other file from the sources, and waiting for the build left the machine's cores to one
// package's compiler at a time. A file that runs the built output says `@needsBuild` in its first
// docblock; the test environment holds it before its first hook until the build has finished
// (jest-shared-modules.js), and the sequencer starts it after enough other work to cover the
// build (jest-sequencer.js). The test script names the file the build's outcome is written to
// (`ok` or `failed`) in BRAND_TEST_BUILD_STATUS; jest run on its own has none, and the build is
// the caller's, as before.
const { existsSync, readFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const { setTimeout: sleep } = require('node:timers/promises');

const NEEDS_BUILD_PRAGMA = 'needsBuild';

// The docblock parser jest's runner uses, resolved from where the runner resolves it.
const fromJest = createRequire(require.resolve('jest'));
const docblock = createRequire(createRequire(fromJest.resolve('@jest/core')).resolve('jest-runner'))('jest-docblock');

/** How long a file waits for the build: a deadline only a build that hangs reaches. */
const BUILD_DEADLINE_MS = 10 * 60_000;

/**
 * Whether a test file's source declares `@needsBuild` (read by the sequencer, before jest runs the
 * file): its first docblock's pragmas, parsed as jest parses them for the test environment, so
 * the two never disagree about a file.
 */
const declaresNeedsBuild = (source) => Object.hasOwn(docblock.parse(docblock.extract(source)), NEEDS_BUILD_PRAGMA);

/** Whether the test script's build is still running. */
const buildRunning = () => {
  const statusFile = process.env.BRAND_TEST_BUILD_STATUS;
  return Boolean(statusFile) && !existsSync(statusFile);
};

/** Resolves once the test script's build has finished; rejects if it failed or never ends. */
async function untilBuilt() {
  const statusFile = process.env.BRAND_TEST_BUILD_STATUS;
  if (!statusFile) return;
  const deadline = Date.now() + BUILD_DEADLINE_MS;
  while (!existsSync(statusFile)) {
    if (Date.now() > deadline) throw new Error(`the build did not finish in ${BUILD_DEADLINE_MS} ms`);
    await sleep(100);
  }
  if (readFileSync(statusFile, 'utf8').trim() !== 'ok') {
    throw new Error(
      'the build failed (its output is printed at the end of the run), and this file runs the built output',
    );
  }
}

module.exports = { NEEDS_BUILD_PRAGMA, declaresNeedsBuild, buildRunning, untilBuilt };
