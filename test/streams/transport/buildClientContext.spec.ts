import { buildClientContext, type ClientEnvironment, parseUserAgent, webDisplayMode } from '../../../streams/transport/buildClientContext';
import { VIDFRAME_CLIENT_VERSION, WEB_EMBEDDED_PLAYER_CLIENT_NAME } from '../../../streams/transport/clientIdentity';
import { createClientEnvironmentReader, readClientEnvironment } from '../../../streams/transport/readClientEnvironment';

const CHROME_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.126 Safari/537.36';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8 Build/AP1A.240405.002) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const FIREFOX_WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0';

const mediaMatching = (mode: string) => (query: string) => ({ matches: query === `(display-mode: ${mode})` });

const fullEnv: ClientEnvironment = {
  navigator: { userAgent: CHROME_MAC, language: 'de-AT', connection: { type: 'wifi', effectiveType: '4g' } },
  screen: { width: 1440, height: 900, availWidth: 1440, availHeight: 875, colorDepth: 30 },
  innerWidth: 640,
  innerHeight: 360,
  devicePixelRatio: 2,
  matchMedia: mediaMatching('browser'),
  timeZone: 'Europe/Vienna',
  utcOffsetMinutes: 120,
  historyLength: 3,
  framed: true,
  visible: true,
  pageLoadTimeMs: 1_700_000_000_000,
  page: {
    hl: 'de',
    gl: 'AT',
    visitorData: 'CgtWSVNJVE9S',
    experimentsToken: 'EXP',
    configInfo: { appInstallData: 'AID' },
    theme: 'dark',
    locationInfo: { locationPermissionAuthorizationStatus: 'UNSUPPORTED' },
    delegatedSessionId: 'DSID',
    onBehalfOfUser: 'OBO',
    consistencyTokenJars: [{ encryptedTokenJarContents: 'JAR', expirationSeconds: '600' }],
  },
};

describe('buildClientContext (spec §3)', () => {
  it('builds the innertube-shaped context from a full environment', () => {
    expect(buildClientContext(fullEnv)).toEqual({
      client: {
        hl: 'de',
        gl: 'AT',
        clientName: 'WEB_EMBEDDED_PLAYER',
        clientVersion: VIDFRAME_CLIENT_VERSION,
        configInfo: { appInstallData: 'AID' },
        userAgent: CHROME_MAC,
        visitorData: 'CgtWSVNJVE9S',
        screenDensityFloat: 2,
        screenPixelDensity: 2,
        experimentsToken: 'EXP',
        connectionType: 'CONN_WIFI',
        effectiveConnectionType: 'EFFECTIVE_CONNECTION_TYPE_4G',
        mainAppWebInfo: { webDisplayMode: 'WEB_DISPLAY_MODE_BROWSER' },
        deviceMake: 'Apple',
        browserName: 'Chrome',
        browserVersion: '126.0.6478.126',
        osName: 'Macintosh',
        osVersion: '10.15.7',
        platform: 'DESKTOP',
        screenWidthPoints: 1440,
        screenHeightPoints: 900,
        timeZone: 'Europe/Vienna',
        utcOffsetMinutes: 120,
        userInterfaceTheme: 'USER_INTERFACE_THEME_DARK',
        locationInfo: { locationPermissionAuthorizationStatus: 'UNSUPPORTED' },
      },
      user: { lockedSafetyMode: false, delegatedSessionId: 'DSID', onBehalfOfUser: 'OBO' },
      request: { useSsl: true, consistencyTokenJars: [{ encryptedTokenJarContents: 'JAR', expirationSeconds: '600' }], internalExperimentFlags: [] },
      adSignalsInfo: {
        params: [
          { key: 'dt', value: '1700000000000' },
          { key: 'flash', value: '0' },
          { key: 'frm', value: '1' },
          { key: 'u_tz', value: '120' },
          { key: 'u_his', value: '3' },
          { key: 'u_h', value: '900' },
          { key: 'u_w', value: '1440' },
          { key: 'u_ah', value: '875' },
          { key: 'u_aw', value: '1440' },
          { key: 'u_cd', value: '30' },
          { key: 'bih', value: '360' },
          { key: 'biw', value: '640' },
          { key: 'vis', value: '1' },
        ],
      },
    });
  });

  it('works from an empty environment: defaults, nothing guessed, no ad signals', () => {
    expect(buildClientContext({})).toEqual({
      client: {
        hl: 'en',
        gl: 'US',
        clientName: WEB_EMBEDDED_PLAYER_CLIENT_NAME,
        clientVersion: VIDFRAME_CLIENT_VERSION,
        mainAppWebInfo: { webDisplayMode: 'WEB_DISPLAY_MODE_UNKNOWN' },
        platform: 'DESKTOP',
      },
      user: { lockedSafetyMode: false },
      request: { useSsl: true, consistencyTokenJars: [], internalExperimentFlags: [] },
    });
  });

  it('falls back to navigator.language for hl/gl', () => {
    const { client } = buildClientContext({ navigator: { language: 'pt-BR' } });
    expect([client.hl, client.gl]).toEqual(['pt', 'BR']);
  });

  it('never carries the logged-in flag (header only, spec §6) and survives junk', () => {
    const junk = { navigator: { connection: { type: 'quantum' } }, devicePixelRatio: Number.NaN, page: { consistencyTokenJars: [null, {}] } };
    const context = buildClientContext(junk as unknown as ClientEnvironment);
    expect(JSON.stringify(context)).not.toMatch(/logged/i);
    expect(context.client.connectionType).toBe('CONN_UNKNOWN');
    expect(context.client.screenDensityFloat).toBeUndefined();
    expect(context.request.consistencyTokenJars).toEqual([]);
  });

  it.each([
    ['standalone', 'WEB_DISPLAY_MODE_STANDALONE'],
    ['minimal-ui', 'WEB_DISPLAY_MODE_MINIMAL_UI'],
    ['fullscreen', 'WEB_DISPLAY_MODE_FULLSCREEN'],
    ['browser', 'WEB_DISPLAY_MODE_BROWSER'],
    ['picture-in-picture', 'WEB_DISPLAY_MODE_UNKNOWN'],
  ])('display mode %s → %s', (mode, expected) => {
    expect(webDisplayMode(mediaMatching(mode))).toBe(expected);
  });

  it('display mode is unknown without matchMedia or when it throws', () => {
    expect(webDisplayMode(undefined)).toBe('WEB_DISPLAY_MODE_UNKNOWN');
    expect(
      webDisplayMode(() => {
        throw new Error('x');
      }),
    ).toBe('WEB_DISPLAY_MODE_UNKNOWN');
  });

  it.each([
    ['cellular', '3g', 'CONN_CELLULAR_UNKNOWN', 'EFFECTIVE_CONNECTION_TYPE_3G'],
    ['ethernet', 'slow-2g', 'CONN_WIRED', 'EFFECTIVE_CONNECTION_TYPE_SLOW_2G'],
    ['none', '2g', 'CONN_NONE', 'EFFECTIVE_CONNECTION_TYPE_2G'],
    [undefined, '5g', undefined, 'EFFECTIVE_CONNECTION_TYPE_UNKNOWN'],
  ])('connection %s/%s → %s/%s', (type, effectiveType, connectionType, effective) => {
    const { client } = buildClientContext({ navigator: { connection: { type, effectiveType } } });
    expect(client.connectionType).toBe(connectionType);
    expect(client.effectiveConnectionType).toBe(effective);
  });

  it('parses browser, OS and device from common user agents', () => {
    expect(parseUserAgent(ANDROID)).toEqual({
      browserName: 'Chrome',
      browserVersion: '125.0.0.0',
      osName: 'Android',
      osVersion: '14',
      deviceModel: 'Pixel 8',
      platform: 'MOBILE',
    });
    expect(parseUserAgent(IPHONE)).toEqual({
      browserName: 'Safari',
      browserVersion: '17.5',
      osName: 'iOS',
      osVersion: '17.5',
      deviceMake: 'Apple',
      deviceModel: 'iPhone',
      platform: 'MOBILE',
    });
    expect(parseUserAgent(FIREFOX_WIN)).toEqual({ browserName: 'Firefox', browserVersion: '127.0', osName: 'Windows', osVersion: '10.0', platform: 'DESKTOP' });
    expect(parseUserAgent('')).toEqual({ platform: 'DESKTOP' });
  });
});

describe('readClientEnvironment', () => {
  it('snapshots a window-like object and tolerates throwing getters', () => {
    const win = {
      navigator: { userAgent: CHROME_MAC, language: 'en-GB', connection: { type: 'wifi', effectiveType: '4g' } },
      get screen(): never {
        throw new Error('sandboxed');
      },
      innerWidth: 300,
      innerHeight: 150,
      devicePixelRatio: 1.5,
      matchMedia: mediaMatching('fullscreen'),
      history: { length: 2 },
      document: { visibilityState: 'hidden' },
      top: {},
      self: {},
    };
    const env = readClientEnvironment(win as never, { hl: 'en' });
    expect(env).toMatchObject({
      navigator: { userAgent: CHROME_MAC, language: 'en-GB', connection: { type: 'wifi', effectiveType: '4g' } },
      screen: undefined,
      innerWidth: 300,
      devicePixelRatio: 1.5,
      historyLength: 2,
      framed: true,
      visible: false,
      page: { hl: 'en' },
    });
    expect(typeof env.timeZone).toBe('string');
    expect(buildClientContext(env).client.mainAppWebInfo.webDisplayMode).toBe('WEB_DISPLAY_MODE_FULLSCREEN');
  });
});

describe('createClientEnvironmentReader', () => {
  const countingWindow = () => {
    const reads = { userAgent: 0, screen: 0 };
    const win = {
      navigator: {
        get userAgent() {
          reads.userAgent += 1;
          return CHROME_MAC;
        },
        language: 'en-GB',
        connection: { type: 'wifi', effectiveType: '4g' },
      },
      get screen() {
        reads.screen += 1;
        return { width: 1920, height: 1080, availWidth: 1920, availHeight: 1050, colorDepth: 24 };
      },
      innerWidth: 320,
      innerHeight: 180,
      history: { length: 1 },
      document: { visibilityState: 'visible' },
    };
    return { win, reads };
  };

  afterEach(() => jest.restoreAllMocks());

  it('reads the stable part (user agent, screen, time zone) once per page, however many requests are built', () => {
    const { win, reads } = countingWindow();
    const formatter = jest.spyOn(Intl, 'DateTimeFormat');
    const read = createClientEnvironmentReader(win as never);
    const first = read({ hl: 'en' });
    for (let i = 0; i < 9; i++) read({ hl: 'en' });
    expect(formatter).toHaveBeenCalledTimes(1);
    expect(reads.userAgent).toBe(1);
    expect(reads.screen).toBe(1);
    expect(first).toEqual(readClientEnvironment(win as never, { hl: 'en' }));
  });

  it('reads what can change on every request: frame size, visibility, history, connection', () => {
    const { win } = countingWindow();
    const read = createClientEnvironmentReader(win as never);
    expect(read()).toMatchObject({ innerWidth: 320, visible: true, historyLength: 1, navigator: { connection: { effectiveType: '4g' } } });
    win.innerWidth = 640;
    win.innerHeight = 360;
    win.document.visibilityState = 'hidden';
    win.history.length = 3;
    win.navigator.connection = { type: 'cellular', effectiveType: '3g' };
    expect(read({ hl: 'fr' })).toMatchObject({
      innerWidth: 640,
      innerHeight: 360,
      visible: false,
      historyLength: 3,
      navigator: { userAgent: CHROME_MAC, connection: { type: 'cellular', effectiveType: '3g' } },
      page: { hl: 'fr' },
    });
  });
});
