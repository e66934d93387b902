import type { Config } from 'jest';

/**
 * Six projects, one per layer or tool (see docs/architecture in the README):
 * - streams: pure RxJS factories under Node, proven with marble specs;
 * - src: React views and browser code under jsdom (with structuredClone for fake-indexeddb);
 * - server: the reference server through Fastify's inject;
 * - tooling: the project's own tooling (the lint rules that hold the layers, the scripts such as ingest);
 * - e2e: real Chromium (Debian's) driven by playwright-core against the real server;
 * - package: the host SDK package packed, installed from its tarball into a scratch project and used (needs the build).
 */
/** ts-jest checks with the tests' configuration (Node, the DOM and Jest's types) and compiles to CommonJS itself. */
const tsJest = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json', diagnostics: { warnOnly: false } }],
} as const;

/** `dist/package/package.json` is the host SDK package, also named vidframe: out of Jest's module map (haste collision). */
const modulePathIgnorePatterns = ['<rootDir>/dist/'];

const config: Config = {
  // Two test files at a time, also on two cores: much of the suite waits on browsers, server processes and databases
  // outside the worker, and every file starts its own on free ports, so no two files share state.
  maxWorkers: 2,
  projects: [
    {
      displayName: 'streams',
      testEnvironment: 'node',
      transform: tsJest,
      modulePathIgnorePatterns,
      testMatch: ['<rootDir>/test/streams/**/*.spec.ts'],
    },
    {
      displayName: 'src',
      testEnvironment: '<rootDir>/test/helpers/jsdomWithStructuredClone.ts',
      transform: tsJest,
      modulePathIgnorePatterns,
      setupFiles: ['fake-indexeddb/auto'],
      // A view's own stylesheet (imported by its module, bundled by Vite): nothing under jsdom.
      moduleNameMapper: { '\\.css$': '<rootDir>/test/helpers/styleStub.ts' },
      testMatch: ['<rootDir>/test/src/**/*.spec.ts?(x)'],
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      transform: tsJest,
      modulePathIgnorePatterns,
      testMatch: ['<rootDir>/test/server/**/*.spec.ts'],
    },
    {
      displayName: 'tooling',
      testEnvironment: 'node',
      transform: tsJest,
      testMatch: ['<rootDir>/test/tooling/**/*.spec.ts', '<rootDir>/test/scripts/**/*.spec.ts'],
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      transform: tsJest,
      modulePathIgnorePatterns,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/e2e/helpers/setup.ts'],
      slowTestThreshold: 30,
    },
    {
      displayName: 'package',
      testEnvironment: 'node',
      transform: tsJest,
      modulePathIgnorePatterns,
      testMatch: ['<rootDir>/test/package/**/*.spec.ts'],
      slowTestThreshold: 60,
    },
  ],
};

export default config;
