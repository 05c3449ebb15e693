#!/usr/bin/env node
/**
 * The brand CLI: `pnpm brand <command> [--json]` from the repository root (see `run-cli.ts`).
 */
import { runCli } from './run-cli';

runCli(process.argv.slice(2), process.env, {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  ...(process.stderr.isTTY ? { terminal: process.stderr } : {}),
}).then(
  // exitCode rather than exit(): pending output is flushed before the process ends.
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
