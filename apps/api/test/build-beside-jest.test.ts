import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtFile } from './support/server-process';

/**
 * `npm test` builds beside jest (docs/testing.md, "@needsBuild"): the files that run the build
 * wait for the status file the test script writes when it ends, and start after other work while
 * it runs. The pieces of tooling/config that do it, against a status file of this test's own.
 */
const fromTooling = createRequire(join(__dirname, '..', '..', '..', 'tooling', 'config', 'index.js'));
const builtOutput = fromTooling('./jest-built-output.js') as {
  untilBuilt(): Promise<void>;
  buildRunning(): boolean;
};
type TestFile = { path: string; duration?: number };
const SlowFirstSequencer = fromTooling('./jest-sequencer.js') as new (
  options: object,
) => {
  builtFilesAfterOtherWork(sorted: TestFile[]): TestFile[];
};

describe('the build beside jest', () => {
  let folder: string;
  let statusFile: string;
  const previousStatus = process.env.BRAND_TEST_BUILD_STATUS;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'brand-build-status-'));
    statusFile = join(folder, 'build-status');
    process.env.BRAND_TEST_BUILD_STATUS = statusFile;
  });
  afterEach(() => {
    if (previousStatus === undefined) delete process.env.BRAND_TEST_BUILD_STATUS;
    else process.env.BRAND_TEST_BUILD_STATUS = previousStatus;
    rmSync(folder, { recursive: true, force: true });
  });

  it('holds a file until the build says ok', async () => {
    let built = false;
    const waiting = builtOutput.untilBuilt().then(() => (built = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(built).toBe(false);
    expect(builtOutput.buildRunning()).toBe(true);

    writeFileSync(statusFile, 'ok\n');
    await waiting;

    expect(built).toBe(true);
    expect(builtOutput.buildRunning()).toBe(false);
  });

  it('fails the waiting file when the build failed', async () => {
    const waiting = builtOutput.untilBuilt();
    writeFileSync(statusFile, 'failed\n');

    await expect(waiting).rejects.toThrow('the build failed');
  });

  it('refuses to start the built server while the build runs, naming the pragma', () => {
    const server = join(folder, 'server.js');
    writeFileSync(server, '');

    expect(() => builtFile(server)).toThrow('@needsBuild');

    writeFileSync(statusFile, 'ok\n');
    expect(builtFile(server)).toBe(server);
  });

  it('starts the files that run the build after other work worth about its time', () => {
    const file = (name: string, source: string, seconds: number): TestFile => {
      const path = join(folder, `${name}.test.ts`);
      writeFileSync(path, source);
      return { path, duration: seconds * 1000 };
    };
    const server = file('server', '/**\n * @needsBuild\n */\n', 15);
    const long = file('long', '// @slow: long\n', 12);
    const middle = file('middle', '', 10);
    const short = file('short', '', 9);
    const shortest = file('shortest', '', 1);
    const sequencer = new SlowFirstSequencer({});

    const order = sequencer.builtFilesAfterOtherWork([server, long, middle, short, shortest]);

    // 12 + 10 + 9 worker-seconds of other files first, then the one that waits for the build.
    expect(order.map((test) => test.path)).toEqual([long, middle, short, server, shortest].map((test) => test.path));
  });
});
