import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The folders of the tree as a graph: an edge from folder A to folder B when a module in A imports a module in B (a
 * static or dynamic import, an `export … from`, or a type-only import: a folder that needs another's types depends on
 * it as much as one that needs its values). Built with the TypeScript compiler: each file is parsed for its module
 * specifiers and each specifier resolved as the compiler resolves it, so `./x` finds `x.ts`, `x.tsx` or `x/index.ts`.
 * Package imports (`rxjs`, `node:fs`) are not folders of the tree and are left out.
 *
 * A folder is one directly under a root (`streams/host`, `server/collector`, `src/embed/page` with the root
 * `src/embed`), its subfolders included: how a domain arranges itself inside (`server/collector/stores/sqlite`
 * implementing the interface of `server/collector/store.ts`) is its own business. A file directly in a root
 * (`streams/timing.ts`, `server/app.ts`, `server/errors.ts`) counts as a folder of its own, so the composition root
 * importing every domain and every domain importing a shared module beside it are no cycle.
 */
export interface ImportEdge {
  from: string;
  to: string;
  /** The imports that make the edge, for the message: each importing file and the file it resolves to. */
  imports: { file: string; imports: string }[];
}

export interface FileSystem {
  /** Paths relative to `root`, with `/` separators. */
  files: readonly string[];
  readFile(path: string): string | undefined;
  fileExists(path: string): boolean;
}

const compilerOptions: ts.CompilerOptions = {
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  resolveJsonModule: true,
  allowJs: true,
};

/** Every module specifier of a file's source, type-only ones included. */
export function moduleSpecifiers(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      found.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) found.push(expression.text);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [argument] = node.arguments;
      if (argument && ts.isStringLiteralLike(argument)) found.push(argument.text);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      found.push(node.argument.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The folder of a file under the deepest of `roots` that holds it (see above), or undefined outside them all.
 * `folderOf(['src', 'src/embed'])('src/embed/page/main.ts')` is `src/embed/page`.
 */
export function folderOf(roots: readonly string[]): (file: string) => string | undefined {
  const byDepth = [...roots].sort((a, b) => b.length - a.length);
  return (file) => {
    const root = byDepth.find((r) => file.startsWith(`${r}/`));
    if (root === undefined) return undefined;
    const [first] = file.slice(root.length + 1).split('/');
    return `${root}/${first}`;
  };
}

/** The folder-to-folder edges of `fs`'s files under `roots` (a folder importing itself is no edge). */
export function folderEdges(root: string, fs: FileSystem, roots: readonly string[]): ImportEdge[] {
  const folder = folderOf(roots);
  const host: ts.ModuleResolutionHost = {
    fileExists: (path) => fs.fileExists(relative(root, path)),
    readFile: (path) => fs.readFile(relative(root, path)),
  };
  const cache = ts.createModuleResolutionCache(root, (name) => name, compilerOptions);
  const edges = new Map<string, ImportEdge>();
  for (const file of fs.files) {
    const text = fs.readFile(file);
    if (text === undefined) continue;
    const from = folder(file);
    if (from === undefined) continue;
    for (const specifier of moduleSpecifiers(file, text)) {
      if (!specifier.startsWith('.')) continue;
      const resolved = ts.resolveModuleName(specifier, resolve(root, file), compilerOptions, host, cache).resolvedModule;
      const target = resolved ? relative(root, resolved.resolvedFileName) : relative(root, resolve(root, dirname(file), specifier));
      if (target.startsWith('..') || target.includes('node_modules')) continue;
      const to = folder(target);
      if (to === undefined || from === to) continue;
      const key = `${from}\0${to}`;
      const edge = edges.get(key) ?? { from, to, imports: [] };
      edge.imports.push({ file, imports: target });
      edges.set(key, edge);
    }
  }
  return [...edges.values()];
}

/**
 * The import cycles between folders: each strongly connected component of the graph with more than one folder
 * (Tarjan's algorithm), as its folders in order, with the edges inside it.
 */
export function folderCycles(edges: readonly ImportEdge[]): { folders: string[]; edges: ImportEdge[] }[] {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (folder: string): void => {
    index.set(folder, index.size);
    low.set(folder, index.get(folder) ?? 0);
    stack.push(folder);
    onStack.add(folder);
    for (const to of next.get(folder) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(folder, Math.min(low.get(folder) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) {
        low.set(folder, Math.min(low.get(folder) ?? 0, index.get(to) ?? 0));
      }
    }
    if (low.get(folder) !== index.get(folder)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== folder);
    if (component.length > 1) components.push(component.sort());
  };
  for (const folder of [...new Set(edges.flatMap((e) => [e.from, e.to]))].sort()) if (!index.has(folder)) connect(folder);
  return components.map((folders) => ({ folders, edges: edges.filter((e) => folders.includes(e.from) && folders.includes(e.to)) }));
}

/** A cycle as text: its folders, then each edge with the imports that make it. */
export function describeCycle(cycle: { folders: string[]; edges: ImportEdge[] }): string {
  return [
    cycle.folders.join(' <-> '),
    ...cycle.edges.flatMap((e) => [`  ${e.from} -> ${e.to}:`, ...e.imports.map((i) => `    ${i.file} imports ${i.imports}`)]),
  ].join('\n');
}
