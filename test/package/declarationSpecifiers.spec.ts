import { resolve } from 'node:path';
import { rewriteSpecifiers, withJsExtension } from '../../scripts/declarationSpecifiers';

/** The `.js` extensions the SDK's emitted declarations get (node16 / nodenext resolve nothing without them). */
const out = resolve('/pkg/types');
const emitted = new Set([
  resolve(out, 'src/host/sdk/index.d.ts'),
  resolve(out, 'src/host/sdk/Player.d.ts'),
  resolve(out, 'src/host/react/index.d.ts'),
  resolve(out, 'streams/player/types.d.ts'),
]);
const from = resolve(out, 'src/host/react/index.d.ts');
const fix = (text: string) => rewriteSpecifiers(text, (spec) => withJsExtension(spec, from, emitted));

describe('declaration specifiers', () => {
  it('adds .js to relative files and /index.js to folders, in every import and export form', () => {
    expect(fix("import type { Player } from '../sdk/Player';")).toBe("import type { Player } from '../sdk/Player.js';");
    expect(fix('export { Player } from "../sdk";')).toBe('export { Player } from "../sdk/index.js";');
    expect(fix("export * from '../../../streams/player/types';")).toBe("export * from '../../../streams/player/types.js';");
    expect(fix("let p: import('../sdk/Player').Player;")).toBe("let p: import('../sdk/Player.js').Player;");
    expect(fix("import '../sdk/Player';")).toBe("import '../sdk/Player.js';");
  });

  it('leaves packages and specifiers that already have an extension alone', () => {
    const text = "import { Observable } from 'rxjs';\nexport declare function f(): import(\"react\").JSX.Element;\nexport * from './x.js';";
    expect(fix(text)).toBe(text);
  });

  it('refuses a relative import that was not emitted (the package would ship a broken declaration)', () => {
    expect(() => fix("import type { X } from './missing';")).toThrow(/imports \.\/missing, which was not emitted/);
  });
});
