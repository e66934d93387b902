// ESLint (flat config): typescript-eslint's recommended rules, React's hooks rules for the React code, and the
// design's layering (shared/design/architecture.md, "Layers and what each may import") as import rules, so a file that
// crosses a layer fails `npm run lint` (part of `npm test`).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/**
 * The wire contract the server shares with the client: modules of `streams/` that hold only constants, types and pure
 * validators or encoders (no RxJS at run time, no DOM). The server may import values from these; from anything else
 * in `streams/` only types. The same list is held to that purity below.
 */
const CONTRACT_MODULES = [
  'timing',
  'collector/adminApi',
  'transport/credentialTransferTokens',
  'transport/logEndpoints',
  'config/playerConfig',
  // The one check of a player answer, inlined in the page or fetched.
  'config/readPlayerResponse',
  'tracking/pingState',
  'player/playerModel',
  'player/captionSettings',
  // The player's first steps, which the server runs to answer a host's handshake from the page's HTML.
  'player/reducePlayer',
  'player/playerStep',
  'player/playerSeek',
  'player/playerLoad',
  'player/playerPlayback',
  'player/playerPlaylist',
  'player/playerCaptions',
  'player/playerMediaEvents',
  'player/errorCodes',
  'player/playerState',
  'player/videoIdFromUrl',
  'player/playerInfo',
  'host/hostApiInterface',
  'host/snapshotForHost',
  'host/earlyHandshake',
  'host/hostGate',
  'platform/payloads',
  'identity/base64url',
  'attestation/attestationStates',
  'adStatus/adStatusGlobal',
  // Numbers as text without V8's number-to-text caches, for the contract modules that write numbers too.
  'shared/numberText',
  // A duration as the player writes it (`m:ss`), which the end screen's suggestions carry too.
  'shared/formatTime',
  // The interface language, and the words the server writes into the page's shell in it.
  'i18n/language',
  'i18n/shellText',
];
const contractAlternation = CONTRACT_MODULES.map((m) => m.replace('/', '\\/')).join('|');

const REACT_PACKAGES = ['react', 'react-dom', 'react/*', 'react-dom/*', 'observable-hooks'];

/** What every file of `streams/` may not import: React, and anything from the pages or the server. */
const STREAMS_IMPORT_PATTERNS = [
  { group: REACT_PACKAGES, message: 'streams/ is pure RxJS: no React (architecture.md, layers).' },
  { regex: '(^|/)(src|server)/', message: 'streams/ imports nothing from src/ or server/ (architecture.md, layers).' },
];

/**
 * The outside world that `streams/` reaches only through `streams/sources/` (architecture.md, conventions 2): time comes
 * from an injected scheduler (`scheduler.now()`, timed operators), so a marble test sees every delay; the window and the
 * document come in as parameters of a source, so stream code runs under Node and jsdom alike.
 */
const TIME_MESSAGE = 'streams/ reads time from an injected scheduler (scheduler.now(), timer(ms, scheduler)); only streams/sources/ touches the clock.';
const PAGE_MESSAGE = 'streams/ reaches the window and the document only through a source in streams/sources/ that takes them as a parameter.';
const STREAMS_OUTSIDE_WORLD = {
  'no-restricted-globals': [
    'error',
    { name: 'setTimeout', message: TIME_MESSAGE },
    { name: 'setInterval', message: TIME_MESSAGE },
    { name: 'window', message: PAGE_MESSAGE },
    { name: 'document', message: PAGE_MESSAGE },
  ],
  'no-restricted-properties': [
    'error',
    { object: 'Date', property: 'now', message: TIME_MESSAGE },
    { object: 'globalThis', property: 'setTimeout', message: TIME_MESSAGE },
    { object: 'globalThis', property: 'setInterval', message: TIME_MESSAGE },
    { object: 'globalThis', property: 'window', message: PAGE_MESSAGE },
    { object: 'globalThis', property: 'document', message: PAGE_MESSAGE },
  ],
};

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '.vite/', 'coverage/', 'test-results/', '.data/', '.bench/', 'media/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.browser, ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_`-prefixed parameters and variables are deliberately unused (positional callbacks, rest omission).
      // A variable a closure reads before its one assignment (a test's "current value" read by a callback) is not a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // A type-only import says so: `import type { … }` when every name is a type, `type` before each type of a mixed
    // import. A bundler and the layering rules above and below then tell what is loaded at run time from what is only
    // checked.
    files: ['**/*.{ts,tsx,mts,cts}'],
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-import-type-side-effects': 'error',
    },
  },
  {
    // Tests read untyped JSON (collector answers, page globals through the browser): `any` is allowed there only.
    files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'test/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The plugin's recommended set (rules of hooks, exhaustive deps and the React Compiler's checks), as errors.
    rules: { ...Object.fromEntries(Object.keys(reactHooks.configs.recommended.rules).map((rule) => [rule, 'error'])) },
  },
  {
    // streams/: pure RxJS, no React, nothing from the pages or the server; no clock, timers, window or document.
    files: ['streams/**/*.ts'],
    ignores: ['streams/sources/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: STREAMS_IMPORT_PATTERNS }],
      ...STREAMS_OUTSIDE_WORLD,
    },
  },
  {
    // streams/sources/: the edges read the outside world, and depend on nothing but RxJS, the timing constants and each
    // other at run time (types from anywhere), so every other folder may build on them without a cycle.
    files: ['streams/sources/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            ...STREAMS_IMPORT_PATTERNS,
            {
              regex: '^(?!rxjs$|\\.\\./timing$|\\./[^/]+$)',
              allowTypeImports: true,
              message: 'streams/sources/ imports values only from rxjs, ../timing and other sources (types from anywhere).',
            },
          ],
        },
      ],
    },
  },
  {
    // server/: its own dependencies; from streams/ only types, and values from the shared contract modules.
    files: ['server/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: REACT_PACKAGES.filter((p) => !p.includes('*')).map((name) => ({ name, message: 'The server does not render React.' })),
          patterns: [
            { regex: '(^|/)src/', message: 'server/ imports nothing from src/ (architecture.md, layers).' },
            {
              regex: `(^|/)streams/(?!(${contractAlternation})$)`,
              allowTypeImports: true,
              message: 'server/ imports only types from streams/, and values only from the shared contract modules listed in eslint.config.js.',
            },
          ],
        },
      ],
    },
  },
  {
    // The shared contract modules stay pure, so the server never loads stream code through them.
    files: CONTRACT_MODULES.map((m) => `streams/${m}.ts`),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['rxjs', 'idb', ...REACT_PACKAGES.filter((p) => !p.includes('*'))].map((name) => ({
            name,
            allowTypeImports: true,
            message: 'A shared contract module holds constants, types and pure functions only.',
          })),
          patterns: [
            {
              regex: `^\\.\\.?/(?!(\\.\\./)*(${contractAlternation}|${CONTRACT_MODULES.map((m) => m.split('/').pop()).join('|')})$)`,
              allowTypeImports: true,
              message: 'A shared contract module imports values only from other contract modules (eslint.config.js).',
            },
          ],
        },
      ],
    },
  },
);
