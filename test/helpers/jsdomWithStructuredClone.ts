import { TestEnvironment } from 'jest-environment-jsdom';

/**
 * jsdom without Node's `structuredClone`, which fake-indexeddb needs to copy values:
 * this environment hands the Node global to the jsdom window.
 */
export default class JsdomWithStructuredClone extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    this.global.structuredClone = structuredClone;
  }
}
