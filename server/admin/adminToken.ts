import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The admin token that guards the collector's reads, the dashboard's data and `/metrics`. A given token
 * (`VIDFRAME_ADMIN_TOKEN`, or `buildApp`'s `adminToken`) wins; otherwise the token kept in `{dataDir}/secrets/admin-token` (mode 0600), generated on the first start.
 * The server's output names the file, never the token: output ends up in log stores that others read.
 */
export function loadOrCreateAdminToken(file: string, given?: string): { token: string; source: 'env' | 'file' | 'generated' } {
  if (given !== undefined && given !== '') {
    if (given.length < 16) throw new Error('The admin token (VIDFRAME_ADMIN_TOKEN) must be at least 16 characters');
    return { token: given, source: 'env' };
  }
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 16) return { token, source: 'file' };
  }
  const token = randomBytes(24).toString('base64url');
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, source: 'generated' };
}
