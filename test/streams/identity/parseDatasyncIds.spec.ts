import { DATASYNC_ID_NOT_SET_MESSAGE, parseDatasyncIds } from '../../../streams/identity/parseDatasyncIds';

describe('parseDatasyncIds', () => {
  it('reads a delegated session from "<pageId>||<userId>"', () => {
    expect(parseDatasyncIds({ datasyncIds: ['page-7||user-1', 'ignored'] })).toEqual({
      datasyncId: 'page-7||user-1',
      userId: 'user-1',
      delegatedSessionId: 'page-7',
    });
  });

  it('reads a session of one\'s own from "<userId>||"', () => {
    const ids = parseDatasyncIds({ datasyncIds: ['user-1||'] });
    expect(ids).toEqual({ datasyncId: 'user-1||', userId: 'user-1' });
    expect('delegatedSessionId' in ids).toBe(false);
  });

  it('takes an id without || as a plain user id', () => {
    expect(parseDatasyncIds({ datasyncIds: ['user-1'] })).toEqual({ datasyncId: 'user-1', userId: 'user-1' });
  });

  it.each([
    ['no body', undefined],
    ['null', null],
    ['no field', {}],
    ['a string field', { datasyncIds: 'user-1||' }],
    ['an empty list', { datasyncIds: [] }],
    ['an empty id', { datasyncIds: [''] }],
    ['a number', { datasyncIds: [42] }],
    ['null id', { datasyncIds: [null] }],
    ['only the separator', { datasyncIds: ['||'] }],
    ['a page id without a user', { datasyncIds: ['||user-1'] }],
  ])('throws exactly "Datasync ID not set" for %s', (_case, body) => {
    expect(() => parseDatasyncIds(body)).toThrow(new Error('Datasync ID not set'));
  });

  it('exports the spec §8 message', () => {
    expect(DATASYNC_ID_NOT_SET_MESSAGE).toBe('Datasync ID not set');
  });
});
