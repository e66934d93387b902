/**
 * Where the server's own state lives (`VIDFRAME_DB`): the embedded SQLite file of the data folder (the default), or a
 * PostgreSQL database shared by several servers.
 */
export type StateDatabaseSetting = { engine: 'sqlite' } | { engine: 'postgres'; url: string };

/**
 * The value with its credentials hidden, for a message that may be logged: of a URL, its scheme and what follows the
 * last `@` (a password may hold `/`, `:` or `@` itself, so nothing before that is shown).
 */
const redacted = (value: string): string =>
  value.replace(/^([a-z][a-z0-9+.-]*:\/\/)?.*@/is, (_, scheme: string | undefined) => `${scheme ?? ''}***@`).slice(0, 200);

/**
 * Reads a `VIDFRAME_DB` value: unset, empty or `sqlite` for the embedded file; a `postgres://` (or `postgresql://`)
 * URL naming a host (or a socket folder by its `host` parameter), as `pg` reads it (`postgres://user:password@host:5432/database?sslmode=require`).
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
  // A Unix socket is named by a `host` parameter (`postgres:///vidframe?host=/var/run/postgresql`), as `pg` reads it.
  if (url.hostname === '' && !url.searchParams.get('host')) throw refuse();
  return { engine: 'postgres', url: text };
}
