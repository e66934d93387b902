import { ApiFetchError, JSON_PARSING_FAILED_MESSAGE, JsonParseError, RequestError, UNKNOWN_REQUEST_ERROR_MESSAGE } from '../transport/apiErrors';

/** A failed player call as the load reports it: the internal error name (host code by spec §8) and its message. */
export interface PlayerFetchFailure {
  internal: string;
  message: string;
}

/**
 * The internal name of an answer the player cannot read: no JSON (an HTML page from a proxy, an empty body), JSON that
 * does not parse, or JSON that is not a player response. Spec §8 names no player error for it: it is one of the
 * "any other" names, host code 5.
 */
export const BAD_RESPONSE_INTERNAL = 'net.badresponse';
/** The message of a JSON answer that is not a player response (spec §8 gives none). */
export const NOT_A_PLAYER_RESPONSE_MESSAGE = 'The answer is not a player response.';

/** An answer that arrived but is no player response: `body` is what the transport parsed (`undefined` when not JSON). */
export function unreadablePlayerAnswer(body: unknown): PlayerFetchFailure {
  return { internal: BAD_RESPONSE_INTERNAL, message: body === undefined ? JSON_PARSING_FAILED_MESSAGE : NOT_A_PLAYER_RESPONSE_MESSAGE };
}

/**
 * What a failed player call reports, from what the transport raised (spec §8's network codes and messages):
 *
 * | error                          | internal          | message                              |
 * |--------------------------------|-------------------|--------------------------------------|
 * | RequestError (timeout, network, extension blocking) | its code (`net.timeout`, `net.unknown`) | its message |
 * | ApiFetchError (4xx, 5xx)       | `net.badstatus`   | `Request failed, status=<status>`    |
 * | JsonParseError                 | `net.badresponse` | `JSON parsing failed after fetch`    |
 * | anything else                  | `net.unknown`     | `Unknown request error`              |
 *
 * Every one of them is host code 5 ("any other"); an error answer carrying a player response in its error details
 * never gets here (it is that response, spec §7).
 */
export function playerFetchFailure(error: unknown): PlayerFetchFailure {
  if (error instanceof RequestError) return { internal: error.code, message: error.message };
  if (error instanceof ApiFetchError) {
    const cause = error.cause instanceof Error ? error.cause.message : error.message;
    return { internal: 'net.badstatus', message: cause };
  }
  if (error instanceof JsonParseError) return { internal: BAD_RESPONSE_INTERNAL, message: error.message };
  return { internal: 'net.unknown', message: UNKNOWN_REQUEST_ERROR_MESSAGE };
}
