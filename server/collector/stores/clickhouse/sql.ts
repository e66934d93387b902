/**
 * The only ways a value enters the text of a ClickHouse query. ClickHouse 18.16 (Debian's build) has no query
 * parameters (`{name:Type}`, 19.x), so every query is built from values that went through one of these helpers:
 * numbers are checked finite (and whole where the column is), strings are quoted by {@link quoteString}, names by
 * {@link identifier}. Inserts never build SQL from values: their rows travel as `JSONEachRow` in the request body.
 */

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A database or table name, refused unless it is a plain identifier (so it needs no quoting at all). */
export function identifier(name: string): string {
  if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
    throw new TypeError(`not a plain identifier (letters, digits and _, not starting with a digit): ${JSON.stringify(name)}`);
  }
  return name;
}

/** Lone UTF-16 surrogates have no UTF-8 form: they become U+FFFD, as any UTF-8 store (SQLite too) writes them. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
export const wellFormed = (text: string): string => text.replace(LONE_SURROGATE, '\uFFFD');

/**
 * A ClickHouse string literal: `'…'` with every backslash and single quote escaped by a backslash. Inside a quoted
 * literal ClickHouse reads nothing else specially (newlines, NUL, `{x:String}` are literal text), so this is all the
 * escaping there is; the spec proves it by reading hostile strings back through the real server.
 */
export function quoteString(value: string): string {
  if (typeof value !== 'string') throw new TypeError(`not a string: ${typeof value}`);
  return `'${wellFormed(value).replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A whole number for the query text, refused unless it is a safe integer within [min, max]. */
export function sqlInt(value: number, what: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new RangeError(`${what} must be a whole number in [${min}, ${max}], got ${String(value)}`);
  }
  return String(value);
}
