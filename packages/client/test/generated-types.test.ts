import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const packageDir = join(__dirname, '..');

/**
 * What the generation script's own function makes of the checked-in document. Run by plain Node:
 * openapi-typescript loads ES modules that jest's CommonJS runtime cannot require.
 */
function freshTypes(): string {
  const program =
    "require('./scripts/types-from-document').typesFromDocument(require('./openapi.json'))" +
    '.then((text) => process.stdout.write(text))';
  return execFileSync(process.execPath, ['-e', program], {
    cwd: packageDir,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

describe('generated types', () => {
  it('are what openapi-typescript makes of the checked-in document (else: pnpm --filter @brand/client generate)', () => {
    const checkedIn = readFileSync(join(packageDir, 'src/generated/api.ts'), 'utf8');

    const fresh = freshTypes();

    // The first line that differs, rather than a diff of half a megabyte.
    const freshLines = fresh.split('\n');
    const checkedInLines = checkedIn.split('\n');
    const line = freshLines.findIndex((text, i) => text !== checkedInLines[i]);
    const differing = line === -1 && freshLines.length !== checkedInLines.length ? freshLines.length : line;
    expect({ differing, fresh: freshLines[differing], checkedIn: checkedInLines[differing] }).toEqual({
      differing: -1,
      fresh: undefined,
      checkedIn: undefined,
    });
  });
});
