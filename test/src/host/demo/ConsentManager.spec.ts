import { TCString } from '@iabtcf/core';
import { CONSENT_STORAGE_KEY, type ConsentManager, startConsentManager, type TcfApi, type TCData } from '../../../../src/host/demo/ConsentManager';

type TcfWindow = Window & { __tcfapi?: TcfApi };
const tcfWindow = window as TcfWindow;
const encode = ({ purposeOne }: { purposeOne: boolean }) => (purposeOne ? 'TC-CONSENT' : 'TC-NO-CONSENT');

/** A child frame standing in for the embed: what the CMP posts to it, and calls from it. */
function fakeFrame() {
  const iframe = document.createElement('iframe');
  document.body.appendChild(iframe);
  const source = iframe.contentWindow!;
  const posted: Array<{ data: unknown; targetOrigin: unknown }> = [];
  jest
    .spyOn(source, 'postMessage')
    .mockImplementation(((data: unknown, targetOrigin: unknown) => void posted.push({ data, targetOrigin })) as Window['postMessage']);
  const call = (data: unknown) => window.dispatchEvent(new MessageEvent('message', { data, origin: 'http://embed.test', source }));
  /** The `__tcfapiReturn`s posted so far (JSON strings parsed). */
  const returns = () =>
    posted
      .map(
        ({ data }) => (typeof data === 'string' ? JSON.parse(data) : data) as { __tcfapiReturn: { returnValue: unknown; success: boolean; callId: unknown } },
      )
      .map((m) => m.__tcfapiReturn);
  return { iframe, posted, call, returns };
}

describe('the demo CMP (IAB TCF v2.2 on the demo host page)', () => {
  let cmp: ConsentManager | undefined;
  const start = () => (cmp = startConsentManager({ encode }));

  beforeEach(() => localStorage.clear());
  afterEach(() => {
    cmp?.stop();
    cmp = undefined;
    jest.restoreAllMocks();
    document.body.innerHTML = '';
  });

  it('installs window.__tcfapi and the hidden __tcfapiLocator frame; stop removes both', () => {
    start();
    expect(typeof tcfWindow.__tcfapi).toBe('function');
    const locator = document.querySelector('iframe[name="__tcfapiLocator"]') as HTMLIFrameElement;
    expect(locator).not.toBeNull();
    expect(locator.hidden).toBe(true);
    expect(locator.getAttribute('style')).toBeNull(); // no inline style: the page's CSP refuses them
    expect(window.frames['__tcfapiLocator' as never]).toBe(locator.contentWindow);
    cmp!.stop();
    expect(tcfWindow.__tcfapi).toBeUndefined();
    expect(document.querySelector('iframe[name="__tcfapiLocator"]')).toBeNull();
  });

  it('answers ping and getTCData directly: loaded, GDPR applies, not decided is no consent', () => {
    start();
    const ping = jest.fn();
    tcfWindow.__tcfapi!('ping', 2, ping);
    expect(ping).toHaveBeenCalledWith(
      expect.objectContaining({ cmpLoaded: true, cmpStatus: 'loaded', gdprApplies: true, apiVersion: '2.2', tcfPolicyVersion: 5 }),
      true,
    );
    const got = jest.fn();
    tcfWindow.__tcfapi!('getTCData', 2, got);
    const [tcData, success] = got.mock.calls[0] as [TCData, boolean];
    expect(success).toBe(true);
    expect(tcData).toMatchObject({ tcString: 'TC-NO-CONSENT', gdprApplies: true, eventStatus: 'tcloaded', cmpStatus: 'loaded', tcfPolicyVersion: 5 });
    expect(tcData.purpose.consents[1]).toBe(false);
    expect(tcData.listenerId).toBeUndefined();
    expect(cmp!.getState().choice).toBe('undecided');
  });

  it('refuses another API version and an unknown command with success false', () => {
    start();
    const cb = jest.fn();
    tcfWindow.__tcfapi!('getTCData', 3, cb);
    tcfWindow.__tcfapi!('getInAppTCData', 2, cb);
    expect(cb.mock.calls).toEqual([
      [null, false],
      [null, false],
    ]);
  });

  it('cross-frame: an object call is answered to event.source with the same callId, target origin *', () => {
    start();
    const frame = fakeFrame();
    frame.call({ __tcfapiCall: { command: 'getTCData', version: 2, callId: 'call-7' } });
    expect(frame.posted).toHaveLength(1);
    expect(frame.posted[0].targetOrigin).toBe('*');
    expect(frame.posted[0].data).toEqual({
      __tcfapiReturn: { returnValue: expect.objectContaining({ tcString: 'TC-NO-CONSENT', eventStatus: 'tcloaded' }), success: true, callId: 'call-7' },
    });
  });

  it('cross-frame: a JSON string call is answered with a JSON string', () => {
    start();
    const frame = fakeFrame();
    frame.call(JSON.stringify({ __tcfapiCall: { command: 'ping', version: 2, callId: 3 } }));
    expect(typeof frame.posted[0].data).toBe('string');
    expect(frame.returns()).toEqual([{ returnValue: expect.objectContaining({ cmpLoaded: true }), success: true, callId: 3 }]);
  });

  it('cross-frame: addEventListener answers again on grant and withdraw; removeEventListener stops it', () => {
    start();
    const frame = fakeFrame();
    frame.call({ __tcfapiCall: { command: 'addEventListener', version: 2, callId: 'listen' } });
    const [first] = frame.returns();
    const listenerId = (first.returnValue as TCData).listenerId;
    expect(listenerId).toEqual(expect.any(Number));
    expect(first).toMatchObject({
      callId: 'listen',
      success: true,
      returnValue: { eventStatus: 'tcloaded', tcString: 'TC-NO-CONSENT', purpose: { consents: { 1: false } } },
    });
    expect(cmp!.getState().listeners).toBe(1);

    cmp!.grant();
    cmp!.withdraw();
    expect(frame.returns().slice(1)).toEqual([
      {
        callId: 'listen',
        success: true,
        returnValue: expect.objectContaining({
          listenerId,
          eventStatus: 'useractioncomplete',
          tcString: 'TC-CONSENT',
          purpose: expect.objectContaining({ consents: expect.objectContaining({ 1: true }) }),
        }),
      },
      {
        callId: 'listen',
        success: true,
        returnValue: expect.objectContaining({
          listenerId,
          eventStatus: 'useractioncomplete',
          tcString: 'TC-NO-CONSENT',
          purpose: expect.objectContaining({ consents: expect.objectContaining({ 1: false }) }),
        }),
      },
    ]);

    frame.call({ __tcfapiCall: { command: 'removeEventListener', version: 2, callId: 'unlisten', parameter: listenerId } });
    expect(frame.returns()[3]).toEqual({ callId: 'unlisten', success: true, returnValue: true });
    expect(cmp!.getState().listeners).toBe(0);
    cmp!.grant();
    expect(frame.returns()).toHaveLength(4); // nothing more for 'listen'

    frame.call({ __tcfapiCall: { command: 'removeEventListener', version: 2, callId: 'again', parameter: listenerId } });
    expect(frame.returns()[4]).toEqual({ callId: 'again', success: false, returnValue: false });
  });

  it('ignores messages that are not TCF calls (the embed protocol, junk, calls without a source)', () => {
    start();
    const frame = fakeFrame();
    frame.call(JSON.stringify({ event: 'onReady', channel: 'widget', id: 1 }));
    frame.call('{"__tcfapiCall": not json');
    frame.call({ __tcfapiCall: { version: 2, callId: 1 } });
    frame.call(null);
    window.dispatchEvent(new MessageEvent('message', { data: { __tcfapiCall: { command: 'ping', version: 2, callId: 1 } } }));
    expect(frame.posted).toEqual([]);
  });

  it('keeps the choice in localStorage: a new page load starts from it with eventStatus tcloaded', () => {
    start();
    cmp!.grant();
    expect(JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY)!)).toEqual({ purposeOne: true });
    cmp!.stop();
    start();
    expect(cmp!.getState()).toMatchObject({ choice: 'granted', purposeOne: true, tcString: 'TC-CONSENT', eventStatus: 'tcloaded' });
    cmp!.withdraw();
    expect(JSON.parse(localStorage.getItem(CONSENT_STORAGE_KEY)!)).toEqual({ purposeOne: false });
    cmp!.stop();
    localStorage.setItem(CONSENT_STORAGE_KEY, 'garbage');
    start();
    expect(cmp!.getState().choice).toBe('undecided');
  });

  it("by default hands out encodeDemoTcString's TCF v2.2 strings: purpose 1 after a grant, nothing after a withdrawal", () => {
    cmp = startConsentManager();
    const decoded = () => TCString.decode(cmp!.getState().tcString);
    expect(decoded().purposeConsents.has(1)).toBe(false);
    cmp.grant();
    expect(decoded().purposeConsents.has(1)).toBe(true);
    expect(decoded().policyVersion).toBe(5);
    cmp.withdraw();
    expect(decoded().purposeConsents.size).toBe(0);
  });

  it('stop: the message listener goes too, and state$ completes', () => {
    start();
    const frame = fakeFrame();
    const complete = jest.fn();
    cmp!.state$.subscribe({ complete });
    cmp!.stop();
    frame.call({ __tcfapiCall: { command: 'ping', version: 2, callId: 1 } });
    expect(frame.posted).toEqual([]);
    expect(complete).toHaveBeenCalled();
  });
});
