/**
 * `pnpm pack` builds the client (prepack) where the test script's build writes it too, so the file
 * waits for that build to finish (tooling/config/jest-built-output.js).
 *
 * @needsBuild
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const packageDir = join(__dirname, '..');

describe('the published package', () => {
  let unpacked: string;
  let files: string[];
  beforeAll(() => {
    unpacked = mkdtempSync(join(tmpdir(), 'brand-client-pack-'));
    // `pnpm pack` runs prepack, which builds dist first.
    execFileSync('pnpm', ['pack', '--pack-destination', unpacked], { cwd: packageDir, stdio: 'pipe' });
    const tarball = readdirSync(unpacked).find((name) => name.endsWith('.tgz'))!;
    files = execFileSync('tar', ['-tzf', tarball], { cwd: unpacked, encoding: 'utf8' }).trim().split('\n');
    execFileSync('tar', ['-xzf', tarball], { cwd: unpacked });
  });
  afterAll(() => rmSync(unpacked, { recursive: true, force: true }));

  it('holds the built client and its declarations, no sources, tests or scripts', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/README.md',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/generated/api.d.ts',
      ]),
    );
    expect(files.filter((file) => !file.startsWith('package/dist/'))).toEqual(
      expect.not.arrayContaining([expect.stringMatching(/^package\/(src|test|scripts)\//)]),
    );
    expect(files.some((file) => file.endsWith('.tsbuildinfo'))).toBe(false);
  });

  it('depends on no workspace package', () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package/package.json'), 'utf8'));
    const dependencies = { ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies };

    expect(Object.keys(dependencies).filter((name) => name.startsWith('@brand/'))).toEqual([]);
    expect(JSON.stringify(dependencies)).not.toContain('workspace:');
    expect(manifest.main).toBe('dist/index.js');
    expect(manifest.types).toBe('dist/index.d.ts');
  });

  it('loads from the tarball on its own', () => {
    const loaded = execFileSync(
      process.execPath,
      ['-e', "const c = require('./package'); console.log(typeof c.createClient, typeof c.verifyWebhook)"],
      { cwd: unpacked, encoding: 'utf8' },
    );

    expect(loaded.trim()).toBe('function function');
  });
});
