import type { Config } from 'jest';

/**
 * Four projects, one per layer (see docs/architecture in the README):
 * - streams: pure RxJS factories under Node, proven with marble specs;
 * - src: React views and browser code under jsdom (with structuredClone for fake-indexeddb);
 * - server: the reference server through Fastify's inject;
 * - e2e: real Chromium (Debian's) driven by playwright-core against the real server.
 */
const tsJest = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: { module: 'commonjs', moduleResolution: 'bundler', jsx: 'react-jsx' }, diagnostics: { warnOnly: false } }],
  // A few server dependencies ship ESM only (see esmOnly); Jest's module system needs CommonJS, so they are compiled.
  '/node_modules/.+\\.js$': ['ts-jest', { tsconfig: { module: 'commonjs', allowJs: true }, diagnostics: false }],
} as const;
/**
 * Dependencies that ship ESM only (cookie@2 through Fastify's inject, content-disposition through @fastify/static), and
 * @fastify/cookie, which loads cookie@2 with a dynamic `import()` that Jest's CommonJS module system cannot run (ts-jest
 * compiles it to a `require`). Node 20 loads them natively; everything else in node_modules is loaded as it is.
 */
const esmOnly = ['cookie', 'content-disposition', '@fastify/cookie'];
const transformIgnorePatterns = [`/node_modules/(?!(${esmOnly.join('|')})/)`];

const config: Config = {
  projects: [
    {
      displayName: 'streams',
      testEnvironment: 'node',
      transform: tsJest,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/streams/**/*.spec.ts'],
    },
    {
      displayName: 'src',
      testEnvironment: '<rootDir>/test/helpers/jsdomWithStructuredClone.ts',
      transform: tsJest,
      transformIgnorePatterns,
      setupFiles: ['fake-indexeddb/auto'],
      testMatch: ['<rootDir>/test/src/**/*.spec.ts?(x)'],
    },
    {
      displayName: 'server',
      testEnvironment: 'node',
      transform: tsJest,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/server/**/*.spec.ts'],
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      transform: tsJest,
      transformIgnorePatterns,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/e2e/helpers/setup.ts'],
      slowTestThreshold: 30,
    },
  ],
};

export default config;
