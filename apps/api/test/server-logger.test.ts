/**
 * Runs a built module, so it waits for the build (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { builtFile } from './support/server-process';

// The built module, run in a process of its own: what is under test is when the lines reach the
// process's standard output, which only another process sees.
const SERVER_LOGGER = join(__dirname, '..', 'dist', 'infrastructure', 'server-logger.js');

interface Child {
  output(): string;
  exited: Promise<number | null>;
  kill(): void;
}

function runScript(script: string): Child {
  const child = spawn(
    process.execPath,
    ['-e', `const { serverLogger } = require(${JSON.stringify(builtFile(SERVER_LOGGER))});\n${script}`],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    output: () => output,
    exited: new Promise((resolve) => child.once('exit', resolve)),
    kill: () => child.kill('SIGKILL'),
  };
}

function messages(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

async function until(what: string, done: () => boolean): Promise<void> {
  // A deadline only a line that never comes reaches: the periodic flush is a tenth of a second.
  const deadline = Date.now() + 30_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the server logger', () => {
  it('writes a lone line of a quiet process without waiting for a block to fill', async () => {
    // The process stays up until its line has been read, so only the periodic flush can have written it.
    const child = runScript(`
      serverLogger('info').info('API listening');
      setTimeout(() => process.exit(0), 60_000);
    `);
    try {
      await until('the lone line', () => child.output().includes('API listening'));
      expect(messages(child.output())).toEqual(['API listening']);
    } finally {
      child.kill();
      await child.exited;
    }
  });

  it('writes every line, whole and in order, when the process exits with lines still held', async () => {
    // Lines far longer than a block and a burst that fills many: all of them arrive, none torn.
    const child = runScript(`
      const logger = serverLogger('info');
      for (let i = 0; i < 500; i += 1) logger.info({ i, padding: 'x'.repeat(i % 7 === 0 ? 5000 : 100) }, 'line ' + i);
      process.exit(0);
    `);
    expect(await child.exited).toBe(0);
    expect(messages(child.output())).toEqual(Array.from({ length: 500 }, (_, i) => `line ${i}`));
  });

  it('leaves out the levels below the one asked for', async () => {
    const child = runScript(`
      const logger = serverLogger('warn');
      logger.info('not written');
      logger.warn('written');
      process.exit(0);
    `);
    expect(await child.exited).toBe(0);
    expect(messages(child.output())).toEqual(['written']);
  });
});
