import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { serverNodeFlags } from '../../src/server-node-flags';

// The real server process (built by the test command), so that signals, ports, crashes and
// process exit are the ones production sees.
const SERVER = join(__dirname, '..', '..', 'dist', 'server.js');

/**
 * `path`, a file of the API's build, once it can be run. `npm test` builds beside jest, and the
 * files that run the build wait for it by saying `@needsBuild` in their first docblock
 * (tooling/config/jest-built-output.js); one that forgot would run a build half written, or the
 * last one, so it fails here, naming the pragma.
 */
export function builtFile(path: string): string {
  const buildStatus = process.env.BRAND_TEST_BUILD_STATUS;
  if (buildStatus && !existsSync(buildStatus)) {
    throw new Error(
      `${path} is still being built: a test file that runs the build says @needsBuild in its first docblock`,
    );
  }
  if (!existsSync(path)) throw new Error(`${path} is missing: build the API first (pnpm build)`);
  return path;
}

/**
 * How long a server may take to listen: a deadline only a server that never starts reaches. On
 * a busy machine (the suite beside its static checks on two cores, and other work) migrating,
 * seeding the demo brand and forking a cluster's workers took more than the 20 s this once was.
 */
const START_DEADLINE_MS = 90_000;

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** The demo brand's token and app key, when the server seeded an empty database. */
  demo: { accessToken: string; appKey: string } | null;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Everything the process printed so far (stdout and stderr), for failure messages. */
  output(): string;
}

/** A TCP port nobody listens on right now (the kernel's pick). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts `node dist/server.js` against `databaseUrl` and resolves once it listens. `env` adds or
 * overrides environment variables. Without a PORT in `env` the process binds port 0 and the port
 * is read from its "API listening" line: a port picked here and handed over could be taken in
 * between (by another test's process, or as the local end of some outbound connection).
 */
export async function startServerProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...serverNodeFlags(), builtFile(SERVER)], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`server did not start in ${START_DEADLINE_MS} ms:\n${output}`)),
      START_DEADLINE_MS,
    );
    const check = () => {
      const listening = listeningPort(output);
      if (listening === null) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      resolve(listening);
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  const curl = /Bearer ([^"]+)" -H "X-Service-App-Key: ([^"]+)"/.exec(output);
  return {
    child,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    demo: curl ? { accessToken: curl[1]!, appKey: curl[2]! } : null,
    exited,
    output: () => output,
  };
}

/** The port of the first complete "API listening" log line (every cluster worker logs the same one). */
function listeningPort(output: string): number | null {
  for (const line of output.split('\n').slice(0, -1)) {
    if (!line.includes('"API listening"')) continue;
    const port = /"port":(\d+)/.exec(line)?.[1];
    if (port !== undefined && Number(port) > 0) return Number(port);
  }
  return null;
}

/** Ends a server process (SIGKILL if SIGTERM is not enough) and waits for it. */
export async function stopServerProcess(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGTERM');
  const killer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  await server.exited;
  clearTimeout(killer);
}
