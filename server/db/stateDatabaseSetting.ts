/**
 * Where the server's own state lives (`VIDFRAME_DB`): the embedded SQLite file of the data folder (the default), or a
 * PostgreSQL database shared by several servers.
 */
export type StateDatabaseSetting = { engine: 'sqlite' } | { engine: 'postgres'; url: string };

/** The value with its password hidden, for a message that may be logged. */
const redacted = (value: string): string => value.replace(/^([a-z]+:\/\/[^:@/]*:)[^@/]*@/i, '$1***@').slice(0, 200);

/**
 * Reads a `VIDFRAME_DB` value: unset, empty or `sqlite` for the embedded file; a `postgres://` (or `postgresql://`)
 * URL naming a host, as `pg` reads it (`postgres://user:password@host:5432/database?sslmode=require`).
 *
 * @throws the error `fail` makes, with a message that says what is accepted (never the password).
 */
export function parseStateDatabaseSetting(value: string | undefined, fail: (message: string) => Error = (m) => new Error(m)): StateDatabaseSetting {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'sqlite') return { engine: 'sqlite' };
  const refuse = () =>
    fail(`VIDFRAME_DB must be sqlite (the file in the data folder) or a postgres://user:password@host:5432/database URL, not "${redacted(text)}".`);
  if (!/^postgres(ql)?:\/\//i.test(text)) throw refuse();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refuse();
  }
  if (url.hostname === '') throw refuse();
  return { engine: 'postgres', url: text };
}
