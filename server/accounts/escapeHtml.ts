const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Text made safe for HTML element content and quoted attribute values. Every value the sign-in pages write (names,
 * emails, channel titles, ids) goes through it: a display name is whatever its owner typed.
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
