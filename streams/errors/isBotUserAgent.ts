/**
 * User agents whose errors are not reported (spec §8 "scanners and bots skipped"), case-insensitive:
 *
 * - crawlers that name themselves: `…bot` as a word or before `/`, `-`, `;`, `)` (Googlebot, bingbot, AdsBot-Google,
 *   YandexBot, DuckDuckBot, Applebot, Twitterbot), `crawl` (crawler, crawling), `spider` (Baiduspider), `slurp`
 *   (Yahoo), `facebookexternalhit`, and audit robots (`Chrome-Lighthouse`, `PTST` = WebPageTest, `Pingdom`);
 * - security scanners: `scanner`, `nikto`, `sqlmap`, `nmap`, `zgrab`, `masscan`, `acunetix`, `nessus`;
 * - headless script browsers of another age: `PhantomJS`.
 *
 * Not bots for us: `HeadlessChrome` (our own browser tests run headless Chromium, and real users' automation is rare
 * enough to be worth hearing about) and `Cubot` phones (an Android brand whose UA ends in "bot").
 */
export const BOT_USER_AGENT_PATTERN =
  /(?<!cu)bot\b|crawl|spider|slurp|facebookexternalhit|lighthouse|\bPTST\b|pingdom|scanner|nikto|sqlmap|\bnmap\b|zgrab|masscan|acunetix|nessus|phantomjs/i;

/**
 * Whether `userAgent` belongs to a crawler, a scanner or a robot whose errors are not reported. An unknown user agent
 * (`undefined`, not a string) is not a bot: a browser that hides itself is still a viewer.
 */
export function isBotUserAgent(userAgent: unknown, pattern: RegExp = BOT_USER_AGENT_PATTERN): boolean {
  return typeof userAgent === 'string' && pattern.test(userAgent);
}
