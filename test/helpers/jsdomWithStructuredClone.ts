import { TestEnvironment } from 'jest-environment-jsdom';

/**
 * jsdom without Node's `structuredClone`, which fake-indexeddb needs to copy values, nor `TextEncoder`/`TextDecoder`, which the
 * log sink measures bodies with and the identity reads access tokens with (every browser has them): this environment hands the Node globals to the jsdom window.
 */
export default class JsdomWithStructuredClone extends TestEnvironment {
  override async setup(): Promise<void> {
    await super.setup();
    this.global.structuredClone = structuredClone;
    this.global.TextEncoder ??= TextEncoder;
    this.global.TextDecoder ??= TextDecoder as typeof this.global.TextDecoder;
  }
}
