import { adsOriginFor } from '../../../server/ads/adsOriginFor';
import { allowMainServerOrigins } from '../../../server/ads/allowMainServerOrigins';
import { ConfigError, readConfig } from '../../../server/config';

describe('ads host configuration (readConfig → ads)', () => {
  it('defaults: the next port, no fixed origin, no private embed hosts, Lax cookies', () => {
    expect(readConfig({}).ads).toEqual({ port: 8081, origin: undefined, privateEmbedHosts: [], allowedOrigins: [], secureCookies: false });
    expect(readConfig({ PORT: '9000' }).ads.port).toBe(9001);
    // A free main port: a free ads port too.
    expect(readConfig({ PORT: '0' }).ads.port).toBe(0);
  });

  it('reads VIDFRAME_ADS_PORT, VIDFRAME_ADS_ORIGIN, VIDFRAME_ADS_ALLOWED_ORIGINS and VIDFRAME_PRIVATE_EMBED_HOSTS', () => {
    const { ads } = readConfig({
      VIDFRAME_ADS_PORT: '0',
      VIDFRAME_ADS_ORIGIN: 'https://Ads.Example/',
      VIDFRAME_ADS_ALLOWED_ORIGINS: 'https://player.example, https://player.example:8443',
      VIDFRAME_PRIVATE_EMBED_HOSTS: ' Player-NoCookie.example ,localhost ',
    });
    expect(ads).toEqual({
      port: 0,
      origin: 'https://ads.example',
      allowedOrigins: ['https://player.example', 'https://player.example:8443'],
      privateEmbedHosts: ['player-nocookie.example', 'localhost'],
      secureCookies: true,
    });
    expect(readConfig({ VIDFRAME_ADS_PORT: '7000' }).ads.port).toBe(7000);
    expect(readConfig({ VIDFRAME_ADS_ORIGIN: 'http://ads.localhost:8081' }).ads).toMatchObject({ origin: 'http://ads.localhost:8081', secureCookies: false });
  });

  it('refuses mistakes with a ConfigError that names the variable', () => {
    const refused = (env: NodeJS.ProcessEnv, message: string) => {
      expect(() => readConfig(env)).toThrow(ConfigError);
      expect(() => readConfig(env)).toThrow(message);
    };
    refused({ VIDFRAME_ADS_PORT: 'next' }, 'VIDFRAME_ADS_PORT must be a whole number from 0 to 65535, not "next".');
    refused({ VIDFRAME_ADS_PORT: '70000' }, 'VIDFRAME_ADS_PORT must be a whole number from 0 to 65535, not "70000".');
    refused({ PORT: '8080', VIDFRAME_ADS_PORT: '8080' }, 'VIDFRAME_ADS_PORT must differ from PORT (8080): the ads host is a second origin.');
    refused({ PORT: '65535' }, 'PORT is 65535, so the ads host has no next port: set VIDFRAME_ADS_PORT.');
    refused(
      { VIDFRAME_ADS_ORIGIN: 'ads.example' },
      'VIDFRAME_ADS_ORIGIN must be an origin like https://ads.example (scheme, host and port only), not "ads.example".',
    );
    refused({ VIDFRAME_ADS_ORIGIN: 'https://ads.example/pagead' }, 'VIDFRAME_ADS_ORIGIN must be an origin');
    refused(
      { VIDFRAME_ADS_ALLOWED_ORIGINS: 'https://ok.example,ftp://x' },
      'VIDFRAME_ADS_ALLOWED_ORIGINS must be an origin like https://ads.example (scheme, host and port only), not "ftp://x".',
    );
    refused(
      { VIDFRAME_PRIVATE_EMBED_HOSTS: 'https://nocookie.example' },
      'VIDFRAME_PRIVATE_EMBED_HOSTS must list host names (no scheme or port), not "https://nocookie.example".',
    );
  });
});

describe('adsOriginFor', () => {
  const settings = { port: 8081 };

  it("derives the embed request's host name on the ads port, with its protocol", () => {
    expect(adsOriginFor('localhost:8080', 'http', settings)).toBe('http://localhost:8081');
    expect(adsOriginFor('127.0.0.1:8080', 'http:', settings)).toBe('http://127.0.0.1:8081');
    expect(adsOriginFor('[::1]:8080', 'http', settings)).toBe('http://[::1]:8081');
    expect(adsOriginFor('Player.Example', 'https', settings)).toBe('https://player.example:8081');
  });

  it('uses the configured origin as it is', () => {
    expect(adsOriginFor('localhost:8080', 'http', { port: 8081, origin: 'https://ads.example' })).toBe('https://ads.example');
  });

  it('gives undefined for a Host header that is no plain host name, or no port yet', () => {
    for (const hostHeader of ['', 'evil"><script>', 'a b', 'user@host', 'host:port', 'host/path'])
      expect(adsOriginFor(hostHeader, 'http', settings)).toBeUndefined();
    expect(adsOriginFor('localhost', 'ftp', settings)).toBeUndefined();
    expect(adsOriginFor('localhost', 'http', { port: 0 })).toBeUndefined();
  });
});

describe('allowMainServerOrigins', () => {
  it('on loopback: the loopback names on the main port, http or https', () => {
    const allowed = allowMainServerOrigins({ host: 'localhost', port: 8080 });
    for (const origin of ['http://localhost:8080', 'http://127.0.0.1:8080', 'http://[::1]:8080', 'https://localhost:8080']) expect(allowed(origin)).toBe(true);
    for (const origin of ['http://localhost:8081', 'http://localhost', 'http://evil.example:8080', 'null', '', 'http://localhost:8080/path', 'file://']) {
      expect(allowed(origin)).toBe(false);
    }
  });

  it('on a named host: that name; plus the extra origins exactly', () => {
    const allowed = allowMainServerOrigins({ host: 'player.lan', port: 8080, extraOrigins: ['https://player.example'] });
    expect(allowed('http://player.lan:8080')).toBe(true);
    expect(allowed('http://localhost:8080')).toBe(false);
    expect(allowed('https://player.example')).toBe(true);
    expect(allowed('https://player.example:443')).toBe(false); // not how a browser writes an Origin
    expect(allowed('http://player.example')).toBe(false);
  });

  it('on every interface: the loopback names too', () => {
    const allowed = allowMainServerOrigins({ host: '0.0.0.0', port: 8080 });
    expect(allowed('http://127.0.0.1:8080')).toBe(true);
    expect(allowed('http://evil.example:8080')).toBe(false);
  });
});
