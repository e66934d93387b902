import { isBotUserAgent } from '../../../streams/errors/isBotUserAgent';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';

describe('isBotUserAgent', () => {
  it.each([
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
    'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    'AdsBot-Google (+http://www.google.com/adsbot.html)',
    'Mozilla/5.0 (compatible; YandexBot/3.0)',
    'Mozilla/5.0 (compatible; Baiduspider/2.0)',
    'Mozilla/5.0 (compatible; Yahoo! Slurp)',
    'facebookexternalhit/1.1',
    'SomeCrawler/1.0',
    'Mozilla/5.0 (Linux) Chrome/124.0 Safari/537.36 Chrome-Lighthouse',
    'Mozilla/5.0 (compatible; Nmap Scripting Engine)',
    'sqlmap/1.7',
    'Mozilla/5.0 zgrab/0.x',
    'Mozilla/5.0 (Unknown; Linux x86_64) AppleWebKit/538.1 (KHTML, like Gecko) PhantomJS/2.1.1 Safari/538.1',
    'Security Scanner 2.0',
  ])('skips %s', (ua) => expect(isBotUserAgent(ua)).toBe(true));

  it.each([
    CHROME,
    CHROME.replace('Chrome/', 'HeadlessChrome/'), // our own browser tests
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    'Mozilla/5.0 (Linux; Android 10; CUBOT X19) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0',
    '',
  ])('reports %s', (ua) => expect(isBotUserAgent(ua)).toBe(false));

  it('an unknown user agent is not a bot; the pattern is a parameter', () => {
    expect(isBotUserAgent(undefined)).toBe(false);
    expect(isBotUserAgent(42)).toBe(false);
    expect(isBotUserAgent(CHROME, /linux/i)).toBe(true);
  });
});
