/**
 * base64url (RFC 4648 §5, no padding) of UTF-8 text, with the platform's `btoa`/`atob` and `TextEncoder`/`TextDecoder`
 * (present in browsers and in Node), so the identity tokens read the same everywhere.
 */
export function encodeBase64Url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The UTF-8 text of a base64url string (padding optional), or undefined when it is not one. */
export function decodeBase64Url(encoded: string): string | undefined {
  if (typeof encoded !== 'string') return undefined;
  const unpadded = encoded.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9_-]*$/.test(unpadded) || unpadded.length % 4 === 1) return undefined;
  try {
    const binary = atob(unpadded.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (unpadded.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}
