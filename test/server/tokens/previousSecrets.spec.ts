import { createAccessTokens } from '../../../server/tokens/accessTokens';
import { createFeedbackTokensFor } from '../../../server/tokens/feedbackTokens';

/**
 * After a rotation of a shared secret, the tokens its predecessor signed keep verifying on every server that knows the
 * predecessor — the access tokens a signed-in embed holds, and the feedback tokens a retry queue may hold for days —
 * while a token of any other key stays refused.
 */
const OLD = 'the-shared-secret-before-the-rotation-0123456789';
const NEW = 'the-shared-secret-after-the-rotation-0123456789a';
const OTHER = 'a-secret-no-server-of-ours-ever-had-0123456789ab';
const claims = { accountId: 'acc_demoAdaLovelace0000000', sessionId: '0123456789abcdef0123456789abcdef' };

describe('tokens signed under the secret a rotation replaced', () => {
  it('access tokens: verified under the new secret with the old one as its predecessor, not without it', () => {
    const { token } = createAccessTokens({ secret: OLD }).issue(claims);
    expect(createAccessTokens({ secret: NEW, previousSecret: OLD }).verify(token)).toMatchObject({ ok: true, ...claims });
    expect(createAccessTokens({ secret: NEW }).verify(token)).toEqual({ ok: false, reason: 'The access token signature is invalid' });
    const foreign = createAccessTokens({ secret: OTHER }).issue(claims).token;
    expect(createAccessTokens({ secret: NEW, previousSecret: OLD }).verify(foreign)).toEqual({ ok: false, reason: 'The access token signature is invalid' });
    expect(createAccessTokens({ secret: NEW, previousSecret: OLD }).verify('vfat1.garbage')).toEqual({ ok: false, reason: 'The access token is malformed' });
  });

  it('feedback tokens: verified under the new shared secret with the old one as its predecessor, not without it', () => {
    const token = createFeedbackTokensFor({ dataDir: '/nonexistent', sharedSecret: OLD }).issue({ videoId: 'VFsunrise01', kind: 'not_interested' });
    const rotated = createFeedbackTokensFor({ dataDir: '/nonexistent', sharedSecret: NEW, previousSharedSecret: OLD });
    expect(rotated.verify(token)).toMatchObject({ ok: true, videoId: 'VFsunrise01', kind: 'not_interested' });
    expect(createFeedbackTokensFor({ dataDir: '/nonexistent', sharedSecret: NEW }).verify(token)).toMatchObject({ ok: false });
    const foreign = createFeedbackTokensFor({ dataDir: '/nonexistent', sharedSecret: OTHER }).issue({ videoId: 'VFsunrise01', kind: 'not_interested' });
    expect(rotated.verify(foreign)).toEqual({ ok: false, reason: 'has a wrong signature (forged or from another server)' });
  });
});
