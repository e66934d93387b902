import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The embed page writes numbers as text only through `numberText` (`streams/shared/numberText.ts`), never through
 * `String(n)`, a template literal, `'…' + n`, `n.toString()` or `.join()` of numbers, which grow V8's number-to-text
 * caches for the page's life at the first collision (docs/performance.md has the figure). The check reads the page's own modules — everything `src/embed/page/main.ts` imports, statically or on
 * demand, but the controls (`src/embed/page/ui.tsx` and what only it imports: they load when the viewer reaches for the
 * player or the video needs them, and their time text writes numbers too) — with the TypeScript checker, so it knows
 * which values are numbers. What it cannot see: a value typed `unknown` or `any` that holds a number at run time.
 */
const root = resolve(__dirname, '../..');
const ENTRY = 'src/embed/page/main.ts';
const ON_DEMAND_CONTROLS = 'src/embed/page/ui.tsx';

function compilerOptions(): ts.CompilerOptions {
  // The page's own configuration: the browser's.
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.browser.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!parsed) throw new Error('tsconfig.browser.json could not be read');
  return { ...parsed.options, noEmit: true, incremental: false };
}

/** The project's modules reachable from `entry` through relative imports (static and `import()`), `excluded` cut off. */
function moduleGraph(entry: string, excluded: string): string[] {
  const seen = new Set<string>();
  const queue = [resolve(root, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || file === resolve(root, excluded)) continue;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue; // a package: not the page's own code
      const base = resolve(dirname(file), fileName);
      const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((f) => /\.tsx?$/.test(f) && existsSync(f));
      // A stylesheet is not code; any other import that does not resolve would leave its modules unchecked.
      if (found) queue.push(found);
      else if (!/\.css$/.test(fileName)) throw new Error(`${relative(root, file)}: cannot resolve ${fileName}`);
    }
  }
  return [...seen];
}

/** Every number-to-text conversion that goes through V8's caches in `files`, as `path:line kind: code`. */
function numberConversions(files: string[], options: ts.CompilerOptions): string[] {
  const program = ts.createProgram(files, options);
  const checker = program.getTypeChecker();
  const some = (type: ts.Type, flags: ts.TypeFlags): boolean => (type.isUnion() ? type.types.some((t) => (t.flags & flags) !== 0) : (type.flags & flags) !== 0);
  const isNumber = (node: ts.Node) => some(checker.getTypeAtLocation(node), ts.TypeFlags.NumberLike);
  const isString = (node: ts.Node) => some(checker.getTypeAtLocation(node), ts.TypeFlags.StringLike);
  const isNumberArray = (node: ts.Node) => {
    const type = checker.getTypeAtLocation(node);
    const element = checker.isArrayType(type) || checker.isTupleType(type) ? checker.getTypeArguments(type as ts.TypeReference) : [];
    return element.some((t) => some(t, ts.TypeFlags.NumberLike));
  };
  const found: string[] = [];
  for (const file of files) {
    const source = program.getSourceFile(file)!;
    const report = (node: ts.Node, kind: string) => {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${relative(root, file)}:${line} ${kind}: ${node.getText().replace(/\s+/g, ' ').slice(0, 80)}`);
    };
    const visit = (node: ts.Node): void => {
      if (ts.isTemplateSpan(node) && isNumber(node.expression)) report(node.expression, 'template literal');
      if (ts.isBinaryExpression(node) && (node.operatorToken.kind === ts.SyntaxKind.PlusToken || node.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken)) {
        if ((isString(node.left) && isNumber(node.right)) || (isNumber(node.left) && isString(node.right))) report(node, "'…' + number");
      }
      if (ts.isCallExpression(node)) {
        const callee = node.expression;
        if (ts.isIdentifier(callee) && callee.text === 'String' && node.arguments.length === 1 && isNumber(node.arguments[0])) report(node, 'String(number)');
        if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'toString' && isNumber(callee.expression)) report(node, 'number.toString()');
        if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'join' && isNumberArray(callee.expression)) report(node, 'numbers.join()');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe("the embed page's numbers as text", () => {
  jest.setTimeout(120_000);
  const options = compilerOptions();

  it('the page reaches its logging, host protocol and player modules, and not the controls', () => {
    const files = moduleGraph(ENTRY, ON_DEMAND_CONTROLS).map((f) => relative(root, f));
    expect(files).toEqual(
      expect.arrayContaining([
        'src/embed/page/services.ts',
        'src/embed/services/telemetry.ts',
        'streams/transport/stringifyLogEvents.ts',
        'streams/tracking/playbackBeacons.ts',
      ]),
    );
    expect(files).not.toContain(ON_DEMAND_CONTROLS);
  });

  it('converts numbers to text only through numberText', () => {
    expect(numberConversions(moduleGraph(ENTRY, ON_DEMAND_CONTROLS), options)).toEqual([]);
  });

  it('the check finds each kind of conversion (it can fail)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vidframe-number-text-'));
    const file = join(dir, 'sample.ts');
    writeFileSync(
      file,
      [
        'export const n: number = Number(Date.now() % 7);',
        'export const a = `x${n}`;',
        "export const b = 'x' + n;",
        'export const c = String(n);',
        'export const d = n.toString();',
        "export const e = [n, 2].join(',');",
        "export const fine = [JSON.stringify(n), `${'text'}`, 'a' + 'b', ['a'].join(',')];",
      ].join('\n'),
    );
    let found: string[];
    try {
      found = numberConversions([file], options).map((f) => f.replace(/^.*sample\.ts:/, ''));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(found).toEqual([
      '2 template literal: n',
      "3 '…' + number: 'x' + n",
      '4 String(number): String(n)',
      '5 number.toString(): n.toString()',
      "6 numbers.join(): [n, 2].join(',')",
    ]);
  });
});
