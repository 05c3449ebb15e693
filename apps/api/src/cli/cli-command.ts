import { Command } from 'commander';
import { CliContext } from './open-cli-context';

/** What a command prints: the one JSON object of `--json`, or a line (or a few) for people. */
export interface CommandOutput {
  json: Record<string, unknown>;
  text: string;
}

/**
 * One CLI command: how commander parses it and the use case it runs. `run` receives parsed
 * options and an open, migrated database; it calls one use case and shapes the result, nothing
 * more (business rules live in @brand/core).
 */
export interface CliCommand<Options extends object> {
  name: string;
  summary: string;
  /** Declares the command's options on `command` (`--json` is added for every command). */
  configure(command: Command): void;
  /**
   * A problem commander cannot express (e.g. "exactly one of two options"), reported as a usage
   * error before the database is opened.
   */
  usageProblem?(options: Options): string | null;
  run(context: CliContext, options: Options): Promise<CommandOutput>;
}
