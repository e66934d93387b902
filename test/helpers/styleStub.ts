/** What a stylesheet import is under Jest (jsdom applies no CSS): nothing. */
export {};
