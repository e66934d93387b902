/**
 * The ads host's settings, parsed from the environment by `readConfig` (server/config.ts) and read by `npm start`
 * (server/main.ts) and by the embed page, which tells the player where to fetch the anonymous id (spec §7).
 */
export interface AdsHostSettings {
  /**
   * The port the ads host listens on (`VIDFRAME_ADS_PORT`; default the main port + 1, `0` = a free port). The object
   * is live: `npm start` writes the port it really got here once the ads host listens, so a renderer that reads it per
   * request always names the right port.
   */
  port: number;
  /**
   * The origin the embed is told to call (`VIDFRAME_ADS_ORIGIN`, for deployments behind a proxy), e.g.
   * `https://ads.example`; absent: derived per request from the embed's own host name and {@link port}
   * (see `adsOriginFor`).
   */
  origin?: string;
  /** Host names that serve the privacy-enhanced embed, which fetches no anonymous id (`VIDFRAME_PRIVATE_EMBED_HOSTS`). */
  privateEmbedHosts: readonly string[];
  /**
   * Embed origins (exact `scheme://host[:port]`) the ads host answers besides the main server's own
   * (`VIDFRAME_ADS_ALLOWED_ORIGINS`): the public origins of the embed when it is served through a proxy.
   */
  allowedOrigins: readonly string[];
  /**
   * Whether the id cookie is `SameSite=None; Secure` (true when {@link origin} is `https:`) rather than
   * `SameSite=Lax`, which a same-site ads host on another port of the same host name receives.
   */
  secureCookies: boolean;
}
