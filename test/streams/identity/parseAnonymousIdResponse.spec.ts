import { ANONYMOUS_ID_MISSING_MESSAGE, ANONYMOUS_ID_RESPONSE_PREFIX, parseAnonymousIdResponse } from '../../../streams/identity/parseAnonymousIdResponse';

describe('parseAnonymousIdResponse', () => {
  it('says exactly "Biscotti ID is missing from server" (spec §8) behind the )]}\' prefix (spec §5)', () => {
    expect(ANONYMOUS_ID_MISSING_MESSAGE).toBe('Biscotti ID is missing from server');
    expect(ANONYMOUS_ID_RESPONSE_PREFIX).toBe(")]}'");
  });

  it.each([
    [`)]}'\n{"id":"AbC-1","type":1}`, 'AbC-1'],
    [`)]}'{"id":"AbC-1","type":1}`, 'AbC-1'],
    [`)]}'\r\n{"id":"AbC-1"}`, 'AbC-1'],
    [`)]}'\n{"id":"x","other":true}`, 'x'],
  ])('reads the id of %j', (text, id) => {
    expect(parseAnonymousIdResponse(text)).toBe(id);
  });

  it.each([
    ['no prefix', `{"id":"AbC","type":1}`],
    ['another prefix', `)]}\n{"id":"AbC"}`],
    ['prefix not at the start', ` )]}'{"id":"AbC"}`],
    ['type 2', `)]}'{"id":"AbC","type":2}`],
    ['type "1" as a string', `)]}'{"id":"AbC","type":"1"}`],
    ['type null', `)]}'{"id":"AbC","type":null}`],
    ['no id', `)]}'{"type":1}`],
    ['empty id', `)]}'{"id":""}`],
    ['numeric id', `)]}'{"id":42}`],
    ['an array', `)]}'["AbC"]`],
    ['null', `)]}'null`],
    ['a string', `)]}'"AbC"`],
    ['malformed JSON', `)]}'{"id":`],
    ['only the prefix', `)]}'`],
    ['empty text', ''],
  ])('counts %s as missing', (_case, text) => {
    expect(() => parseAnonymousIdResponse(text)).toThrow(new Error('Biscotti ID is missing from server'));
  });

  it('counts a non-string as missing', () => {
    expect(() => parseAnonymousIdResponse(undefined as unknown as string)).toThrow(ANONYMOUS_ID_MISSING_MESSAGE);
  });
});
