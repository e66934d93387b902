const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe for HTML element content and quoted attribute values: the one escaper of every page the server
 * writes (the sign-in pages, the embed page's player shell). Every value that comes from outside (names, emails,
 * channel titles, ids, video titles, URLs) goes through it: a display name is whatever its owner typed.
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
