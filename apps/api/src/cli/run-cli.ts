import { Command, CommanderError } from 'commander';
import { isDomainError } from '@brand/core';
import { CliCommand, CommandOutput } from './cli-command';
import { CliEnv, CliPorts, withCliContext } from './open-cli-context';
import { migrateCommand } from './commands/migrate.command';
import { createBrandCommand } from './commands/create-brand.command';
import { createUserCommand } from './commands/create-user.command';
import { setPasswordCommand } from './commands/set-password.command';
import { createAppCommand } from './commands/create-app.command';
import { rotateAppKeyCommand } from './commands/rotate-app-key.command';
import { createTokenCommand } from './commands/create-token.command';
import { revokeTokenCommand } from './commands/revoke-token.command';
import { demoCommand } from './commands/demo.command';
import { workerCommand } from './commands/worker.command';
import { citusDdlCommand } from './commands/citus-ddl.command';
import { importCommand } from './commands/import.command';
import { bulkStatusCommand } from './commands/bulk-status.command';
import { backupCommand } from './commands/backup.command';

/** Where the CLI writes; the process streams in production, buffers in tests. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  /**
   * A terminal for live progress (`brand import`'s bar): the process's stderr when it is a
   * terminal, else absent, and then a command prints only its result.
   */
  terminal?: NodeJS.WritableStream;
}

// Method bivariance lets each command keep its own options type in one list.
const COMMANDS: readonly CliCommand<object>[] = [
  migrateCommand,
  createBrandCommand,
  createUserCommand,
  setPasswordCommand,
  createAppCommand,
  rotateAppKeyCommand,
  createTokenCommand,
  revokeTokenCommand,
  demoCommand,
  workerCommand,
  importCommand,
  bulkStatusCommand,
  backupCommand,
  citusDdlCommand,
];

const EXAMPLES = `
Every command first brings the schema of DATABASE_URL up to date (default ./data/brand.sqlite;
also sqlite:<path>, :memory: or postgres://...). With --json it prints exactly one JSON object.

Examples:
  pnpm brand create-brand --name "Acme" --currency EUR --json
  pnpm brand create-user --brand 1 --email admin@acme.example --name "Ada Admin" --password "a long passphrase"
  pnpm brand set-password --user 1 --password "another long passphrase"
  pnpm brand create-app --brand 1 --name "ERP integration" --redirect-uri https://erp.acme.example/oauth/callback
  pnpm brand rotate-app-key --app 1
  pnpm brand create-token --user 1 --app 1 --scopes catalog:read,orders:write --expires-in 30d
  pnpm brand revoke-token --token-id 1
  pnpm brand demo
  pnpm brand worker
  pnpm brand import products.sync products.jsonl --brand 1
  pnpm brand bulk-status 42 --json
  pnpm brand backup backups/brand-2026-05-01.sqlite
  DATABASE_URL=postgres://... pnpm brand citus-ddl | psql "$COORDINATOR_URL"`;

function print(io: CliIo, output: CommandOutput, json: boolean): void {
  if (json) io.stdout(`${JSON.stringify(output.json)}\n`);
  else io.stdout(`${output.text}\n`);
}

function buildProgram(env: CliEnv, io: CliIo, ports: CliPorts): Command {
  const program = new Command('brand')
    .description('Administer the Brand commerce platform: brands, users, API apps, tokens, demo data.')
    .usage('<command> [options] [--json]')
    // Usage errors throw instead of exiting, so runCli decides the exit code (and tests survive).
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text) })
    // A usage error is followed by the usage of the command it was about.
    .showHelpAfterError(true)
    .addHelpText('after', EXAMPLES);

  for (const definition of COMMANDS) {
    const command = program.command(definition.name).description(definition.summary);
    definition.configure(command);
    command.option('--json', 'print one JSON object instead of text').action(async (...received: unknown[]) => {
      // Commander passes the positional arguments first, then the options and the command.
      const self = received[received.length - 1] as Command;
      const { json, ...flags } = self.opts<{ json?: boolean }>();
      const positional = Object.fromEntries(
        self.registeredArguments.map((argument, index) => [argument.name(), self.processedArgs[index] as unknown]),
      );
      const options = { ...positional, ...flags };
      const problem = definition.usageProblem?.(options) ?? null;
      if (problem !== null) self.error(`error: ${problem}`);
      const output = await withCliContext(
        env,
        (context) => definition.run({ ...context, terminal: io.terminal ?? null }, options),
        ports,
      );
      print(io, output, json === true);
    });
  }
  return program;
}

function reportError(io: CliIo, error: unknown): void {
  if (isDomainError(error)) {
    io.stderr(`error: ${error.message}\n`);
    const extra = error.violations.filter((violation) => violation.detail !== error.message);
    for (const violation of extra) io.stderr(`  - ${violation.detail}\n`);
    return;
  }
  io.stderr(`error: ${messageOf(error)}\n`);
}

/** Driver errors are not always kind: a refused connection to `localhost` is an AggregateError without a message. */
function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.message === '') return error.errors.map(messageOf).join('; ');
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * Runs one CLI invocation (`argv` without node and the script) and returns its exit code:
 * 0 on success, 1 on a usage error (with usage on stderr), a rejected command (the use case's
 * message and every violation on stderr) or any other failure.
 * @example process.exitCode = await runCli(process.argv.slice(2), process.env, { stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s) });
 */
export async function runCli(argv: string[], env: CliEnv, io: CliIo, ports: CliPorts = {}): Promise<number> {
  const program = buildProgram(env, io, ports);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    // Commander has already written its message (and the usage hint) to stderr.
    if (error instanceof CommanderError) return error.exitCode;
    reportError(io, error);
    return 1;
  }
}
