import { ConfigError, readConfig } from '../../../server/config';
import { parseStateDatabaseSetting } from '../../../server/db/stateDatabaseSetting';

describe('VIDFRAME_DB: where the server keeps its own state', () => {
  it('is the data folder’s SQLite file when unset, empty or sqlite', () => {
    for (const value of [undefined, '', ' ', 'sqlite']) expect(parseStateDatabaseSetting(value)).toEqual({ engine: 'sqlite' });
    expect(readConfig({}).app.database).toEqual({ engine: 'sqlite' });
  });

  it('is PostgreSQL for a postgres:// or postgresql:// URL naming a host', () => {
    const url = 'postgres://vidframe:secret@db.internal:5432/vidframe?sslmode=require';
    expect(readConfig({ VIDFRAME_DB: ` ${url} ` }).app.database).toEqual({ engine: 'postgres', url });
    expect(parseStateDatabaseSetting('postgresql://db.internal/vidframe')).toEqual({ engine: 'postgres', url: 'postgresql://db.internal/vidframe' });
    const socket = 'postgres:///vidframe?host=/var/run/postgresql';
    expect(parseStateDatabaseSetting(socket)).toEqual({ engine: 'postgres', url: socket });
  });

  it('stops the start with a clear error for anything else, never showing the password', () => {
    for (const value of ['mysql://db/x', 'sqlite:/tmp/x.sqlite', 'postgres://', 'postgres:///vidframe', 'db.internal:5432']) {
      expect(() => readConfig({ VIDFRAME_DB: value })).toThrow(ConfigError);
    }
    expect(() => readConfig({ VIDFRAME_DB: 'mysql://db/x' })).toThrow(
      'VIDFRAME_DB must be sqlite (the file in the data folder) or a postgres://user:password@host:5432/database URL, not "mysql://db/x".',
    );
    let message = '';
    try {
      readConfig({ VIDFRAME_DB: 'postgres://ada:hunter2@/vidframe' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('postgres://***@/vidframe');
    expect(message).not.toContain('hunter2');
    // A password holding `/` or `@` (which the URL parser reads as a port or a host) is hidden whole.
    for (const [value, secret] of [
      ['postgres://vf:pa/ss@db:5432/x', 'pa/ss'],
      ['postgres://vf:p@ss:w/rd@db/x', 'p@ss'],
    ]) {
      let refused = '';
      try {
        readConfig({ VIDFRAME_DB: value });
      } catch (error) {
        refused = (error as Error).message;
      }
      expect(refused).toContain('postgres://***@db');
      expect(refused).not.toContain(secret);
    }
  });
});
