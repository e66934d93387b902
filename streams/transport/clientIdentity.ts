/**
 * Who the embed says it is in every API request (spec §3 clientName/clientVersion, §7 client name and version headers).
 * These are identifiers, not timing constants, so they live here rather than in `streams/timing.ts`.
 */

/** The innertube client name of the embedded player (body `context.client.clientName`). */
export const WEB_EMBEDDED_PLAYER_CLIENT_NAME = 'WEB_EMBEDDED_PLAYER';

/** The numeric id of {@link WEB_EMBEDDED_PLAYER_CLIENT_NAME}, sent as the `X-Youtube-Client-Name` header. */
export const WEB_EMBEDDED_PLAYER_CLIENT_NAME_ID = 56;

/** The version of this client (body `context.client.clientVersion` and the `X-Youtube-Client-Version` header). */
export const VIDFRAME_CLIENT_VERSION = '1.20250601.00.00';
