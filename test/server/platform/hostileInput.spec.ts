import { PLATFORM_ENDPOINTS } from '../../../streams/platform/payloads';
import { startPlatformApp, type PlatformTestApp } from './platformTestApp';

/** Whatever a client sends, every platform call answers a 4xx with a message, never a 500, and the server keeps serving. */
describe('platform: hostile input', () => {
  let t: PlatformTestApp;
  let ada: string;
  beforeAll(async () => {
    t = await startPlatformApp();
    ada = await t.signIn('ada');
  });
  afterAll(() => t.close());

  const endpoints = [...Object.values(PLATFORM_ENDPOINTS), 'next'];
  const values: unknown[] = [null, true, -1, 1e308, '', 'x'.repeat(5000), [], [null], {}, { toString: 'x', __proto__: { admin: true } }, Array(2000).fill({})];
  const fields = [
    'channelIds',
    'siloName',
    'params',
    'secondaryParams',
    'botguardResponse',
    'actions',
    'playlistId',
    'feedbackTokens',
    'feedbackContext',
    'isFeedbackTokenUnencrypted',
    'shouldMerge',
    'serializedSharedEntity',
    'clientParams',
    'includeListId',
    'videoId',
    'listType',
    'list',
  ];

  it.each(endpoints)('%s: wrong types, nulls and huge values in every field are 4xx with a message', async (endpoint) => {
    for (const field of fields) {
      for (const value of values) {
        const response = await t.call(endpoint, { [field]: value }, ada);
        expect([endpoint, field, response.statusCode >= 400 && response.statusCode < 500]).toEqual([endpoint, field, true]);
        expect(typeof response.json().error.message).toBe('string');
      }
    }
  });

  it.each(endpoints)('%s: a body that is not a JSON object is refused (4xx)', async (endpoint) => {
    for (const payload of ['[1,2]', 'null', '"text"', '{"unterminated', '']) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/youtubei/v1/${endpoint}`,
        payload,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ada}` },
      });
      expect([payload, response.statusCode >= 400 && response.statusCode < 500]).toEqual([payload, true]);
    }
    const form = await t.app.inject({
      method: 'POST',
      url: `/youtubei/v1/${endpoint}`,
      payload: 'a=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
  });

  it('still answers after all that', async () => {
    expect((await t.call('next', { videoId: 'VFsunrise01' }, ada)).statusCode).toBe(200);
  });
});
