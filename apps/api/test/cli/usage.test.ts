import { brand } from './cli-test-support';

// Usage errors are found before any database is opened, so these need no dialect loop; the URL
// points nowhere on purpose.
const NOWHERE = 'postgres://nobody@localhost:1/never-opened';

describe('brand CLI usage', () => {
  it('prints the commands with --help and exits 0', async () => {
    const run = await brand(NOWHERE, '--help');

    expect(run.code).toBe(0);
    for (const command of [
      'migrate',
      'create-brand',
      'create-user',
      'set-password',
      'create-app',
      'rotate-app-key',
      'create-token',
      'revoke-token',
      'demo',
    ]) {
      expect(run.stdout).toContain(command);
    }
  });

  it('answers an unknown command with exit code 1 and the usage on stderr', async () => {
    const run = await brand(NOWHERE, 'create-shop');

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/unknown command 'create-shop'/);
    expect(run.stderr).toMatch(/Usage: brand <command>/);
  });

  it('answers a missing required option with the usage of that command', async () => {
    const run = await brand(NOWHERE, 'create-brand', '--name', 'Atelier Nord', '--json');

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/required option '--currency <code>' not specified/);
    expect(run.stderr).toMatch(/Usage: brand create-brand \[options\]/);
  });

  it('answers an id that is not a number with a usage error naming the option', async () => {
    const run = await brand(NOWHERE, 'create-user', '--brand', 'acme', '--email', 'a@b.example', '--name', 'Ada');

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/option '--brand <id>' argument 'acme' is invalid\. must be a positive whole number\./);
  });

  it('answers an unreadable --expires-in with a usage error', async () => {
    const run = await brand(NOWHERE, 'create-token', '--user', '1', '--app', '1', '--expires-in', 'soon');

    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/option '--expires-in <duration>' argument 'soon' is invalid/);
  });

  it('requires exactly one of --token-id and --token to revoke', async () => {
    const neither = await brand(NOWHERE, 'revoke-token');
    const both = await brand(NOWHERE, 'revoke-token', '--token-id', '1', '--token', 'abc');

    for (const run of [neither, both]) {
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/give exactly one of '--token-id <id>' and '--token <token>'/);
      expect(run.stderr).toMatch(/Usage: brand revoke-token/);
    }
  });

  it('reports a database it cannot reach on stderr with exit code 1', async () => {
    const run = await brand(NOWHERE, 'migrate', '--json');

    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^error: .*ECONNREFUSED/);
  });
});
