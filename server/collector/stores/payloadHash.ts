import { hash } from 'node:crypto';

/**
 * The hash of an event's JSON that both stores keep on its row: a resend (the same JSON) hashes the same and is a
 * duplicate; another payload under the same key hashes differently and is a conflict. SHA-256, so no payload can be
 * made to pass for another.
 */
export const payloadHashOf = (json: string): string => hash('sha256', json, 'base64url');
