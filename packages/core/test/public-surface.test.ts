// The public surface of @brand/core: what `src/index.ts` and `src/testing/index.ts` export is
// listed, section by section, in `public-api.md`, and every exported name carries a doc comment.
// A change of the surface is therefore a deliberate edit of that file, seen in review.
//
// One TypeScript program over the two entry points (the compiler's JavaScript API, from the
// workspace's `typescript` package): no type check, only parsing, binding and following the
// re-exports to their declarations.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const packageRoot = path.resolve(__dirname, '..');
const reportFile = path.join(packageRoot, 'public-api.md');
const entryPoints = [
  { specifier: '@brand/core', file: path.join(packageRoot, 'src/index.ts') },
  { specifier: '@brand/core/testing', file: path.join(packageRoot, 'src/testing/index.ts') },
];

interface Section {
  title: string;
  description: string;
  names: { name: string; isType: boolean }[];
}

/** The sections of an entry point: each `// Title: description.` comment opens one. */
function sectionsOf(source: ts.SourceFile): Section[] {
  const sections: Section[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) {
      throw new Error(
        `${source.fileName}: only export declarations belong in an entry point, found: ${statement.getText()}`,
      );
    }
    if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) {
      throw new Error(`${source.fileName}: name what is exported (no export *): ${statement.getText()}`);
    }
    for (const range of ts.getLeadingCommentRanges(source.text, statement.pos) ?? []) {
      const comment = source.text.slice(range.pos, range.end);
      const heading = /^\/\/ ([^:]+): (.+)$/.exec(comment);
      if (heading) sections.push({ title: heading[1]!, description: heading[2]!, names: [] });
    }
    const section = sections.at(-1);
    if (!section)
      throw new Error(`${source.fileName}: an export before the first "// Section: what it holds." comment`);
    for (const element of statement.exportClause.elements) {
      section.names.push({ name: element.name.text, isType: statement.isTypeOnly || element.isTypeOnly });
    }
  }
  return sections;
}

/**
 * Whether the declaration (or the statement declaring it) has a doc comment with some text, right
 * above it (no blank line between): a file's opening comment followed by a blank line speaks of
 * the file, not of its first declaration, though the compiler attaches it to that declaration.
 */
function hasDocComment(declaration: ts.Declaration): boolean {
  const node = ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
  const source = node.getSourceFile();
  return ts
    .getJSDocCommentsAndTags(node)
    .some(
      (doc) =>
        ts.isJSDoc(doc) &&
        (ts.getTextOfJSDocComment(doc.comment) ?? '').trim() !== '' &&
        !/\n[ \t]*\n/.test(source.text.slice(doc.end, node.getStart(source))),
    );
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0;

function render(surfaces: { specifier: string; sections: Section[] }[]): string {
  const lines = [
    '# The public surface of `@brand/core`',
    '',
    'Every name the package exports, by entry point and section, as `src/index.ts` and',
    '`src/testing/index.ts` group them; anything else in `src/` is internal to the core.',
    '`test/public-surface.test.ts` fails when the entry points and this file disagree, or when an',
    'exported name has no doc comment: a change of the public surface is an edit of this file, made',
    'on purpose and seen in review (`PUBLIC_API_UPDATE=1 pnpm exec jest packages/core/test/public-surface`',
    'rewrites it from the entry points). See "Public surface of @brand/core" in `docs/decisions/code-layout.md`.',
  ];
  for (const { specifier, sections } of surfaces) {
    const count = sections.reduce((n, s) => n + s.names.length, 0);
    lines.push('', `## \`${specifier}\` (${count} names)`);
    for (const section of sections) {
      const description = section.description.charAt(0).toUpperCase() + section.description.slice(1);
      lines.push('', `### ${section.title}`, '', description, '');
      for (const { name, isType } of [...section.names].sort(byName))
        lines.push(`- \`${name}\`${isType ? ' (type)' : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

const namesIn = (text: string) => new Set([...text.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!));

describe('public surface of @brand/core', () => {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(packageRoot, 'tsconfig.build.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  })!;
  const program = ts.createProgram(
    entryPoints.map((e) => e.file),
    { ...config.options, noEmit: true, types: [] },
  );
  const checker = program.getTypeChecker();
  const surfaces = entryPoints.map(({ specifier, file }) => {
    const source = program.getSourceFile(file)!;
    const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!);
    return { specifier, source, exported, sections: sectionsOf(source) };
  });

  it('has a doc comment on the declaration of every exported name', () => {
    const undocumented: string[] = [];
    for (const { specifier, exported } of surfaces) {
      for (const symbol of exported) {
        const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
        const declarations = target.declarations ?? [];
        if (!declarations.some(hasDocComment)) {
          const where = declarations[0] ? path.relative(packageRoot, declarations[0].getSourceFile().fileName) : '?';
          undocumented.push(`${specifier}: ${symbol.name} (${where})`);
        }
      }
    }
    expect(undocumented).toEqual([]);
  });

  it('groups every export under a section, as the compiler sees the exports', () => {
    for (const { exported, sections } of surfaces) {
      const listed = sections.flatMap((s) => s.names.map((n) => n.name)).sort();
      expect(listed).toEqual(exported.map((s) => s.name).sort());
    }
  });

  it('exports exactly the names public-api.md lists, in its sections', () => {
    const expected = render(surfaces);
    if (process.env.PUBLIC_API_UPDATE === '1') fs.writeFileSync(reportFile, expected);
    const actual = fs.existsSync(reportFile) ? fs.readFileSync(reportFile, 'utf8') : '';
    if (actual === expected) return;
    const [now, listed] = [namesIn(expected), namesIn(actual)];
    const added = [...now].filter((n) => !listed.has(n));
    const removed = [...listed].filter((n) => !now.has(n));
    throw new Error(
      [
        'The public surface of @brand/core is not what packages/core/public-api.md says.',
        `Exported but not listed: ${added.join(', ') || '(none)'}`,
        `Listed but no longer exported: ${removed.join(', ') || '(none)'}`,
        added.length || removed.length ? '' : 'The names agree; their sections, order or descriptions differ.',
        'If the change is intended, update packages/core/public-api.md (PUBLIC_API_UPDATE=1 rewrites it from the',
        'entry points) and have it reviewed; otherwise export what the file lists. Expected file:',
        '',
        expected,
      ].join('\n'),
    );
  });
});
