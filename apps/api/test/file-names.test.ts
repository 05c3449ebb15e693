// The file-name scheme of docs/decisions/code-layout.md ("File names"), held by a test so that it
// does not drift again: a dot suffix names the kind of file, every file of that kind has it and
// no other file does, and no file is named for nothing in particular (`*.helpers.ts`, `utils.ts`).
import * as fs from 'node:fs';
import * as path from 'node:path';

const workspaceRoot = path.resolve(__dirname, '../../..');
const apiSource = path.resolve(__dirname, '../src');

/** Every TypeScript file under `dir`, relative to it, with forward slashes. */
function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => file.split(path.sep).join('/'));
}

/**
 * The API's kind folders: the suffix every file in them carries, and the few shared pieces that
 * are not of the kind, each named for what it holds.
 */
const KIND_FOLDERS: { folder: string; kinds: RegExp; shared: string[] }[] = [
  { folder: 'dtos', kinds: /\.dto\.ts$/, shared: ['decorators.ts', 'legacy/legacy-decorators.ts'] },
  { folder: 'presenters', kinds: /\.presenter\.ts$/, shared: ['amounts.ts'] },
  { folder: 'routers', kinds: /\.router\.ts$/, shared: ['router-deps.ts'] },
  {
    folder: 'console',
    kinds: /\.(router|routes|pages)\.ts$/,
    shared: ['console-context.ts', 'console-layout.ts', 'requests-chart.ts'],
  },
  { folder: 'cli/commands', kinds: /\.command\.ts$/, shared: [] },
];

/** Kind suffixes of the API that belong to one folder each. */
const KIND_HOMES: { kind: RegExp; folders: string[] }[] = [
  { kind: /\.dto\.ts$/, folders: ['dtos/'] },
  { kind: /\.presenter\.ts$/, folders: ['presenters/'] },
  { kind: /\.routes\.ts$/, folders: ['console/'] },
  { kind: /\.pages\.ts$/, folders: ['console/', 'oauth/'] },
  { kind: /\.command\.ts$/, folders: ['cli/commands/'] },
];

describe('file names', () => {
  it.each(KIND_FOLDERS)(
    'every file in apps/api/src/$folder is of its kind or a named shared piece',
    ({ folder, kinds, shared }) => {
      const files = sourceFiles(path.join(apiSource, folder));
      expect(files.length).toBeGreaterThan(0);
      expect(files.filter((file) => !kinds.test(file) && !shared.includes(file))).toEqual([]);
      // A listed exception that no longer exists is removed from the list, not kept as a loophole.
      expect(shared.filter((file) => !files.includes(file))).toEqual([]);
    },
  );

  it('keeps each kind of API file in its folder', () => {
    const misplaced = sourceFiles(apiSource).filter((file) =>
      KIND_HOMES.some(({ kind, folders }) => kind.test(file) && !folders.some((folder) => file.startsWith(folder))),
    );
    expect(misplaced).toEqual([]);
  });

  it('names no source file of the workspace for nothing in particular', () => {
    const roots = ['packages/core/src', 'packages/persistence-kysely/src', 'apps/api/src', 'bench/src'];
    const files = roots.flatMap((root) => sourceFiles(path.join(workspaceRoot, root)).map((file) => `${root}/${file}`));
    expect(files.length).toBeGreaterThan(500);
    const nameless = /(^|[/.-])(helpers?|utils?|misc|common|stuff)\.ts$/;
    expect(files.filter((file) => nameless.test(file))).toEqual([]);
  });
});
