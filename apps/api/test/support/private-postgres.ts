import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  appendFileSync,
  chownSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './server-process';

const run = promisify(execFile);

/**
 * The PostgreSQL server binaries: `PG_BINDIR` (the test command exports the ones it started the
 * shared test server with), else the newest Debian install.
 */
function postgresBinaries(): string {
  const candidates = [process.env.PG_BINDIR, ...listDebianBinDirs()].filter((dir): dir is string => !!dir);
  const found = candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (!found) throw new Error('no PostgreSQL server binaries found: set PG_BINDIR or run the tests through `npm test`');
  return found;
}

function listDebianBinDirs(): string[] {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .sort((a, b) => Number(b) - Number(a))
    .map((major) => join(root, major, 'bin'));
}

/**
 * A PostgreSQL server of a test's own, in a temporary folder on a loopback port, which the test
 * may stop and start again (the shared test server must never be restarted under other tests).
 * initdb and postgres refuse to run as root, so as root they run as the `postgres` user.
 */
export class PrivatePostgres {
  private constructor(
    private readonly bindir: string,
    private readonly folder: string,
    private bound: number,
  ) {}

  /** The port the server listens on; it stays the same across stop() and start(). */
  get port(): number {
    return this.bound;
  }

  /** `postgres://…` of the server's `postgres` database. */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  private get dataDir(): string {
    return join(this.folder, 'data');
  }

  static async create(): Promise<PrivatePostgres> {
    const bindir = postgresBinaries();
    // /tmp rather than a private TMPDIR: the postgres user must be able to enter it.
    const folder = mkdtempSync('/tmp/brand-pg-private-');
    const server = new PrivatePostgres(bindir, folder, await freePort());
    const owner = isRoot() ? await postgresUserIds() : null;
    if (owner) chownSync(folder, ...owner);
    await server.pg('initdb', [
      '-D',
      server.dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '--encoding=UTF8',
      '--locale=C',
      '--no-sync',
    ]);
    appendFileSync(
      join(server.dataDir, 'postgresql.conf'),
      [
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${folder}'`,
        'fsync = off',
        'max_connections = 60',
        '',
      ].join('\n'),
    );
    // The port is picked here and bound by another process, so someone may take it in between
    // (another test's server, the local end of an outbound connection): then another port.
    for (let attempt = 1; ; attempt++) {
      // postgresql.auto.conf: written whole each time, and read after postgresql.conf.
      const portFile = join(server.dataDir, 'postgresql.auto.conf');
      writeFileSync(portFile, `port = ${server.bound}\n`);
      if (owner) chownSync(portFile, ...owner);
      try {
        await server.start();
        return server;
      } catch (error) {
        const log = readFileSync(join(folder, 'postgres.log'), 'utf8');
        if (attempt >= 5 || !/could not bind|Address already in use/i.test(log)) throw error;
        server.bound = await freePort();
      }
    }
  }

  async start(): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.dataDir, '-l', join(this.folder, 'postgres.log'), '-w', '-t', '60', 'start']);
  }

  /** `fast`: what an operator's restart does (active sessions are terminated, 57P01). */
  async stop(mode: 'fast' | 'immediate' = 'fast'): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
  }

  async destroy(): Promise<void> {
    await this.stop('immediate').catch(() => undefined);
    rmSync(this.folder, { recursive: true, force: true });
  }

  private async pg(program: string, args: string[]): Promise<void> {
    const binary = join(this.bindir, program);
    const [command, commandArgs] = isRoot() ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
    await run(command, commandArgs, { cwd: this.folder });
  }
}

function isRoot(): boolean {
  return process.getuid?.() === 0;
}

async function postgresUserIds(): Promise<[number, number]> {
  const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return [Number(uid.stdout.trim()), Number(gid.stdout.trim())];
}
