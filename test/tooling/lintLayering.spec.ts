import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The design's layering (architecture.md, "Layers and what each may import") and its rules for `streams/` (no clock,
 * timers, window or document outside `streams/sources/`; type-only imports marked) are enforced by `npm run lint`
 * (eslint.config.js). Each case lints a made-up file at a real path through the real ESLint binary and
 * configuration, as `npm run lint` would see it if it were committed.
 */
const root = resolve(__dirname, '../..');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

function lint(filePath: string, code: string): LintMessage[] {
  const run = spawnSync(process.execPath, [resolve(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', filePath, '--format', 'json'], {
    cwd: root,
    input: code,
    encoding: 'utf8',
  });
  if (run.status !== 0 && run.status !== 1) throw new Error(`eslint failed (${run.status}): ${run.stderr}`);
  const [result] = JSON.parse(run.stdout) as { messages: LintMessage[] }[];
  return result.messages;
}

const restricted = (messages: LintMessage[]) => messages.filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports');
const ruleIds = (messages: LintMessage[]) => messages.map((m) => m.ruleId);

describe('lint: the layering rules', () => {
  jest.setTimeout(60_000);

  it('a React import in streams/ fails', () => {
    const messages = lint('streams/player/viewHelper.ts', "import { useState } from 'react';\nexport const hook = useState;\n");
    expect(restricted(messages).map((m) => m.message)).toEqual([expect.stringContaining('no React')]);
  });

  it('observable-hooks and react-dom/client in streams/ fail too', () => {
    const messages = lint(
      'streams/player/viewHelper.ts',
      "import { useObservable } from 'observable-hooks';\nimport { createRoot } from 'react-dom/client';\nexport const a = [useObservable, createRoot];\n",
    );
    expect(restricted(messages)).toHaveLength(2);
  });

  it('streams/ importing from src/ or server/ fails', () => {
    const messages = lint(
      'streams/player/viewHelper.ts',
      "import { startTelemetry } from '../../src/embed/services/telemetry';\nimport { buildApp } from '../../server/app';\nexport const a = [startTelemetry, buildApp];\n",
    );
    expect(restricted(messages).map((m) => m.message)).toEqual([expect.stringContaining('nothing from src/'), expect.stringContaining('nothing from src/')]);
  });

  it('streams/ importing rxjs and other streams/ modules passes', () => {
    const messages = lint(
      'streams/player/viewHelper.ts',
      "import { map } from 'rxjs';\nimport { PLAYER_READY_POLL_MS } from '../timing';\nexport const a = [map, PLAYER_READY_POLL_MS];\n",
    );
    expect(restricted(messages)).toEqual([]);
  });

  it('server/ may import types from anywhere in streams/, values only from the contract modules', () => {
    const valueFromStreams = lint(
      'server/collector/helper.ts',
      "import { batchEvents } from '../../streams/logging/batchEvents';\nexport const a = batchEvents;\n",
    );
    expect(restricted(valueFromStreams).map((m) => m.message)).toEqual([expect.stringContaining('only types from streams/')]);

    const typeFromStreams = lint(
      'server/collector/helper.ts',
      "import type { BatchEventsOptions } from '../../streams/logging/batchEvents';\nexport type A = BatchEventsOptions;\n",
    );
    expect(restricted(typeFromStreams)).toEqual([]);

    const contract = lint(
      'server/collector/helper.ts',
      "import { LOG_ENDPOINTS } from '../../streams/transport/logEndpoints';\nexport const a = LOG_ENDPOINTS;\n",
    );
    expect(restricted(contract)).toEqual([]);
  });

  it('server/ importing React or src/ fails', () => {
    const messages = lint(
      'server/collector/helper.ts',
      "import { createElement } from 'react';\nimport { startTelemetry } from '../../src/embed/services/telemetry';\nexport const a = [createElement, startTelemetry];\n",
    );
    expect(restricted(messages)).toHaveLength(2);
  });

  it('a contract module stays pure: no RxJS values, no values from non-contract modules', () => {
    const messages = lint(
      'streams/transport/logEndpoints.ts',
      "import { of } from 'rxjs';\nimport { batchEvents } from '../logging/batchEvents';\nimport type { Observable } from 'rxjs';\nexport const a = [of, batchEvents];\nexport type O = Observable<number>;\n",
    );
    expect(restricted(messages)).toHaveLength(2);
  });

  it('the React hooks rules run on src/', () => {
    const messages = lint(
      'src/embed/Widget.tsx',
      "import { useState } from 'react';\nexport function Widget({ on }: { on: boolean }) {\n  if (on) useState(0);\n  return null;\n}\n",
    );
    expect(messages.map((m) => m.ruleId)).toContain('react-hooks/rules-of-hooks');
  });
});

describe('lint: streams/ reaches the outside world only through streams/sources/', () => {
  jest.setTimeout(60_000);

  it.each([
    ['Date.now()', 'export const now = () => Date.now();\n', 'no-restricted-properties'],
    ['setTimeout', 'export const later = (f: () => void) => setTimeout(f, 10);\n', 'no-restricted-globals'],
    ['setInterval', 'export const every = (f: () => void) => setInterval(f, 10);\n', 'no-restricted-globals'],
    ['globalThis.setTimeout', 'export const later = (f: () => void) => globalThis.setTimeout(f, 10);\n', 'no-restricted-properties'],
    ['window', 'export const origin = () => window.location.origin;\n', 'no-restricted-globals'],
    ['document', "export const hidden = () => document.visibilityState === 'hidden';\n", 'no-restricted-globals'],
  ])('%s in streams/ (outside sources/) fails', (_name, code, rule) => {
    const messages = lint('streams/player/clockHelper.ts', code);
    expect(ruleIds(messages)).toEqual([rule]);
    expect(messages[0]?.message).toMatch(/streams\/sources\//);
  });

  it('a value from another streams/ folder in streams/sources/ fails', () => {
    const messages = lint('streams/sources/probeEvents.ts', "import { batchEvents } from '../logging/batchEvents';\nexport const a = batchEvents;\n");
    expect(restricted(messages).map((m) => m.message)).toEqual([expect.stringContaining('streams/sources/ imports values only from rxjs')]);
  });

  it('streams/sources/ may use the clock, timers, window and document, and import rxjs, ../timing, other sources and types', () => {
    const messages = lint(
      'streams/sources/probeEvents.ts',
      [
        "import { fromEvent, merge, type Observable } from 'rxjs';",
        "import { PLAYER_READY_POLL_MS } from '../timing';",
        "import { eventsOf } from './eventsOf';",
        "import type { HostMessageEvent } from '../host/hostTypes';",
        'export const a = [eventsOf, PLAYER_READY_POLL_MS, Date.now(), setTimeout, setInterval, globalThis.setTimeout];',
        "export const b = (): Observable<unknown> => merge(fromEvent(window, 'message'), fromEvent(document, 'visibilitychange'));",
        'export type M = HostMessageEvent;',
        '',
      ].join('\n'),
    );
    expect(messages).toEqual([]);
  });

  it('a streams/ factory with injected time and marked type imports passes', () => {
    const messages = lint(
      'streams/player/clockHelper.ts',
      [
        "import { asyncScheduler, map, timer, type Observable, type SchedulerLike } from 'rxjs';",
        "import { PLAYER_READY_POLL_MS } from '../timing';",
        'export const stamp = (scheduler: SchedulerLike = asyncScheduler): Observable<number> =>',
        '  timer(PLAYER_READY_POLL_MS, scheduler).pipe(map(() => scheduler.now()));',
        '',
      ].join('\n'),
    );
    expect(messages).toEqual([]);
  });
});

describe('lint: type-only imports are marked', () => {
  jest.setTimeout(60_000);

  it.each(['streams/player/typesHelper.ts', 'src/embed/views/typesHelper.ts', 'server/collector/typesHelper.ts', 'test/streams/typesHelper.spec.ts'])(
    'an unmarked type-only import fails in %s',
    (filePath) => {
      const messages = lint(filePath, "import { Observable } from 'rxjs';\nexport const a = (o: Observable<number>) => o;\n");
      expect(ruleIds(messages)).toEqual(['@typescript-eslint/consistent-type-imports']);
    },
  );

  it('an unmarked type in a mixed import fails', () => {
    const messages = lint('streams/player/typesHelper.ts', "import { of, Observable } from 'rxjs';\nexport const a = (o: Observable<number>) => [o, of];\n");
    expect(ruleIds(messages)).toEqual(['@typescript-eslint/consistent-type-imports']);
  });

  it('an import of types only marks the declaration, not each name', () => {
    const messages = lint('streams/player/typesHelper.ts', "import { type Observable } from 'rxjs';\nexport const a = (o: Observable<number>) => o;\n");
    expect(ruleIds(messages)).toEqual(['@typescript-eslint/no-import-type-side-effects']);
  });

  it('`import type` and `type` in a mixed import pass', () => {
    const messages = lint(
      'streams/player/typesHelper.ts',
      "import type { SchedulerLike } from 'rxjs';\nimport { of, type Observable } from 'rxjs';\nexport const a = (o: Observable<number>, s: SchedulerLike) => [o, s, of];\n",
    );
    expect(messages).toEqual([]);
  });
});
