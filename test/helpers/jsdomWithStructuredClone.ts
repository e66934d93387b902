import { TestEnvironment } from 'jest-environment-jsdom';

/**
 * jsdom without Node's `structuredClone`, which fake-indexeddb needs to copy values, nor `TextEncoder`, which the log
 * sink measures bodies with (every browser has both): this environment hands the Node globals to the jsdom window.
 */
export default class JsdomWithStructuredClone extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    this.global.structuredClone = structuredClone;
    this.global.TextEncoder ??= TextEncoder;
  }
}
