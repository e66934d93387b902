import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * Issue 16 item 4: the design's layering (architecture.md, "Layers and what each may import") is enforced by
 * `npm run lint` (eslint.config.js). Each case lints a made-up file at a real path through the real ESLint binary and
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
