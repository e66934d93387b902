import { decodeOpaque } from '../../streams/platform/payloads';
import { HttpError } from '../http/errors';
import { PLATFORM_TEXT_MAX_CHARS } from './limits';

/**
 * Field checks of the platform payloads: each refusal is a 400 whose message starts with the field's path
 * (`channelIds[2]`, `params.level`), so a client developer sees at once what to fix. Nothing here trusts a type:
 * every value arrives as `unknown` from JSON.
 */

export const badField = (field: string, problem: string): HttpError => new HttpError(400, `${field} ${problem}`);

/** The body as a record (the verifier has already refused a body that is not an object: it carries no anti-forgery field). */
export const fieldsOf = (body: unknown): Record<string, unknown> =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A non-empty string of at most `max` characters. */
export function requireText(fields: Record<string, unknown>, field: string, max = PLATFORM_TEXT_MAX_CHARS): string {
  const value = fields[field];
  if (typeof value !== 'string' || value === '' || value.length > max) throw badField(field, `must be a non-empty string of at most ${max} characters`);
  return value;
}

/** An opaque string of the calls (base64url JSON the client builds with the encoders of `streams/platform/payloads.ts`). */
export function requireOpaque(fields: Record<string, unknown>, field: string): Record<string, unknown> {
  const decoded = decodeOpaque(fields[field]);
  if (!decoded) throw badField(field, 'must be an opaque string built by the client (base64url JSON of an object)');
  return decoded;
}

export function requireBoolean(fields: Record<string, unknown>, field: string): boolean {
  const value = fields[field];
  if (typeof value !== 'boolean') throw badField(field, 'must be true or false');
  return value;
}
