import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The sizes the house holds its code to (architecture.md, conventions 1 and "The page"): a source file stays under
 * 400 lines and a function under 120 (a React component, a wiring function and a method count alike), so each reads in
 * one sitting; `src/embed/` keeps its modules in its role folders, with at most 8 files at its top level.
 */
const root = resolve(__dirname, '../..');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 120;
const MAX_EMBED_TOP_LEVEL_FILES = 8;
const SOURCE_ROOTS = ['src', 'streams', 'server', 'scripts', 'bench'];
/** Output and data, not source: what the benchmarks write. */
const NOT_SOURCE = ['bench/results'];

function sourceFiles(dir: string): string[] {
  if (NOT_SOURCE.includes(dir)) return [];
  return readdirSync(resolve(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(resolve(root, path)).isDirectory()) return sourceFiles(path);
    const isSource = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(name) && !name.endsWith('.d.ts');
    const isTest = /\.(spec|test|e2e)\.[cm]?[jt]sx?$/.test(name);
    return isSource && !isTest ? [path] : [];
  });
}

const lineCount = (text: string) => text.replace(/\n$/, '').split('\n').length;

/** A function's name as a reader finds it: its own, or the variable, property or method that holds it. */
function functionName(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): string {
  if (node.name) return node.name.getText(source);
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.name) {
    return parent.name.getText(source);
  }
  if (ts.isCallExpression(parent) || ts.isNewExpression(parent)) {
    return `(callback of ${ts.isNewExpression(parent) ? 'new ' : ''}${parent.expression.getText(source).slice(0, 40)})`;
  }
  const returnedBy = ts.isReturnStatement(parent) ? ts.findAncestor(parent, ts.isFunctionLike) : ts.isArrowFunction(parent) ? parent : undefined;
  if (returnedBy && 'body' in returnedBy) return `(returned by ${functionName(returnedBy, source)})`;
  if (ts.isExportAssignment(parent)) return 'default export';
  return '(anonymous)';
}

/**
 * Where a file builds an observable by hand (`new Observable`) without saying why on the line above with a
 * `// Hand-written: …` comment. Streams are composed from operators; a hand-written one is an edge to a browser API or
 * an operator whose rules share one state, and the reader is told which.
 */
export function unmarkedObservables(file: string, text: string): string[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) => {
    const code = line.trim();
    if (!/\bnew Observable\b/.test(code) || code.startsWith('//') || code.startsWith('/*') || code.startsWith('*')) return [];
    return /^\s*\/\/ Hand-written: \S/.test(lines[i - 1] ?? '') ? [] : [`${file}:${i + 1}`];
  });
}

interface LongFunction {
  file: string;
  line: number;
  name: string;
  lines: number;
}

/** Every function of a file (declarations, expressions, arrows, methods, constructors, accessors) over `max` lines. */
export function longFunctions(file: string, text: string, max: number): LongFunction[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (
      (ts.isFunctionDeclaration(node) ||
        ts.isFunctionExpression(node) ||
        ts.isArrowFunction(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node)) &&
      node.body
    ) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > max) found.push({ file, line: first + 1, name: functionName(node, source), lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('house rules: sizes', () => {
  const files = SOURCE_ROOTS.flatMap(sourceFiles).map((file) => ({ file, text: readFileSync(resolve(root, file), 'utf8') }));

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(['streams/timing.ts', 'server/app.ts', 'src/embed/page/main.ts']));
  });

  it(`no source file is over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map(({ file, text }) => ({ file, lines: lineCount(text) }))
      .filter((f) => f.lines > MAX_FILE_LINES)
      .sort((a, b) => b.lines - a.lines);
    expect(long.map((f) => `${f.file}: ${f.lines} lines`).join('\n')).toBe('');
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap(({ file, text }) => longFunctions(file, text, MAX_FUNCTION_LINES)).sort((a, b) => b.lines - a.lines);
    expect(long.map((f) => `${f.file}:${f.line} ${f.name}: ${f.lines} lines`).join('\n')).toBe('');
  });

  it(`src/embed/ has at most ${MAX_EMBED_TOP_LEVEL_FILES} files at its top level`, () => {
    const topLevel = readdirSync(resolve(root, 'src/embed')).filter((name) => statSync(resolve(root, 'src/embed', name)).isFile());
    expect(topLevel.length <= MAX_EMBED_TOP_LEVEL_FILES ? [] : topLevel).toEqual([]);
  });

  it('every observable built by hand outside streams/sources/ says why', () => {
    const handWritten = files.filter(({ file }) => /^(src|streams)\//.test(file) && !file.startsWith('streams/sources/'));
    expect(handWritten.flatMap(({ file, text }) => unmarkedObservables(file, text)).join('\n')).toBe('');
  });

  it('finds an observable built by hand without its reason', () => {
    const text = [
      `// Hand-written: the edge to a timer.`,
      `const a = new Observable(() => undefined);`,
      `const b = new Observable(() => undefined);`,
      `/** Not \`new Observable\` in a comment. */`,
      `// Hand-written:`,
      `const c = new Observable(() => undefined);`,
      '',
    ].join('\n');
    expect(unmarkedObservables('probe.ts', text)).toEqual(['probe.ts:3', 'probe.ts:6']);
  });

  it('measures a function from its first line to its last, nested ones on their own', () => {
    const body = (n: number) => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `export function outer() {`,
      `  const inner = () => {`,
      body(4),
      `  };`,
      body(3),
      `}`,
      `class C {`,
      `  method() {`,
      `    return [1,`,
      `      2];`,
      `  }`,
      `}`,
      '',
    ].join('\n');
    expect(longFunctions('probe.ts', text, 2)).toEqual([
      // outer: lines 1-7 (inner's four, then one of its own, then its brace); method: lines 9-12.
      { file: 'probe.ts', line: 1, name: 'outer', lines: 7 },
      { file: 'probe.ts', line: 2, name: 'inner', lines: 4 },
      { file: 'probe.ts', line: 9, name: 'method', lines: 4 },
    ]);
    expect(longFunctions('probe.ts', text, 7)).toEqual([]);
  });
});
