// No use case imports another use case. What two use cases share (a read with its includes, a
// booking done inside the caller's transaction, a request's checks) lives in a module file named
// for what it holds (`customer-relations.ts`, `credit-note-booking.ts`, `export-marks.ts`), which
// both import. A use case file then changes only with its own use case, and a use case never runs
// inside another's transaction by accident.
//
// Which files are use cases: those declaring a function that the core's entry point
// (`src/index.ts`) exports and whose first parameter holds the unit of work (`deps: { uow, … }`):
// a use case opens its own transaction, and the apps reach it through the entry point. A file name
// cannot tell: helpers are named after their function too, and many of them start with a verb
// (`find-order.ts`, `reserve-stock.ts`, `record-events.ts`) while taking the caller's transaction
// (`tx`) instead of a unit of work.
//
// One TypeScript program over the entry point (the compiler's JavaScript API): parsing, binding,
// and the types of the use cases' first parameters.
import * as path from 'node:path';
import * as ts from 'typescript';

const packageRoot = path.resolve(__dirname, '..');
const entryPoint = path.join(packageRoot, 'src/index.ts');

describe('use cases of @brand/core', () => {
  const config = ts.getParsedCommandLineOfConfigFile(path.join(packageRoot, 'tsconfig.build.json'), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
      throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    },
  })!;
  const program = ts.createProgram([entryPoint], { ...config.options, noEmit: true, types: [] });
  const checker = program.getTypeChecker();
  const relative = (file: ts.SourceFile) => path.relative(packageRoot, file.fileName);

  /** Use case files, each with the use cases it declares. */
  const useCaseFiles = new Map<ts.SourceFile, string[]>();
  for (const symbol of checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(entryPoint)!)!)) {
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    for (const declaration of target.declarations ?? []) {
      const [deps] = ts.isFunctionDeclaration(declaration) ? declaration.parameters : [];
      if (deps && checker.getTypeAtLocation(deps).getProperty('uow')) {
        const file = declaration.getSourceFile();
        useCaseFiles.set(file, [...(useCaseFiles.get(file) ?? []), symbol.name]);
      }
    }
  }

  it('finds the use cases by the unit of work they take', () => {
    const names = [...useCaseFiles.values()].flat();
    expect(names).toEqual(expect.arrayContaining(['getCustomer', 'listCustomers', 'placeOrder', 'bookCreditNote']));
    expect(names).not.toContain('findOrderOrFail');
    expect(useCaseFiles.size).toBeGreaterThan(100);
  });

  it('has no use case file importing another', () => {
    const imports: string[] = [];
    for (const file of useCaseFiles.keys()) {
      for (const statement of file.statements) {
        if (!(ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) || !statement.moduleSpecifier)
          continue;
        const imported = checker.getSymbolAtLocation(statement.moduleSpecifier)?.valueDeclaration;
        if (imported && ts.isSourceFile(imported) && imported !== file && useCaseFiles.has(imported))
          imports.push(
            `${relative(file)} imports ${relative(imported)} (${useCaseFiles.get(imported)!.join(', ')}): ` +
              'move what both need into a module file and import it from there',
          );
      }
    }
    expect(imports).toEqual([]);
  });
});
