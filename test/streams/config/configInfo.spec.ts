import { configInfoFrom, configInfoNamesHashesOf } from '../../../streams/config/configInfo';

const answer = (globalConfigGroup: unknown) => ({ responseContext: { globalConfigGroup } });

describe('configInfoFrom', () => {
  it('names the stored hashes and the cold config data; nothing stored is no configInfo', () => {
    expect(configInfoFrom(undefined)).toBeUndefined();
    expect(configInfoFrom({})).toBeUndefined();
    expect(
      configInfoFrom({ hot: { config: {}, hashData: 'h1', timestamp: 1 }, cold: { config: {}, hashData: 'c1', configData: 'CgIIAQ', timestamp: 1 } }),
    ).toEqual({ hotHashData: 'h1', coldHashData: 'c1', coldConfigData: 'CgIIAQ' });
  });
});

describe('configInfoNamesHashesOf', () => {
  const info = { hotHashData: 'h1', coldHashData: 'c1' };

  it('is true when the facts name every hash the answer sends', () => {
    expect(configInfoNamesHashesOf(info, answer({ hotHashData: 'h1', coldHashData: 'c1' }))).toBe(true);
    expect(configInfoNamesHashesOf(info, answer({ hotHashData: 'h1' }))).toBe(true); // no cold hash sent: not compared
  });

  it('is false when a hash differs or the facts name none yet (a read that failed)', () => {
    expect(configInfoNamesHashesOf(info, answer({ hotHashData: 'h2', coldHashData: 'c1' }))).toBe(false);
    expect(configInfoNamesHashesOf(info, answer({ hotHashData: 'h1', coldHashData: 'c2' }))).toBe(false);
    expect(configInfoNamesHashesOf(undefined, answer({ hotHashData: 'h1' }))).toBe(false);
    expect(configInfoNamesHashesOf({ coldHashData: 'c1' }, answer({ hotHashData: 'h1', coldHashData: 'c1' }))).toBe(false);
  });

  it.each([
    ['no answer', undefined],
    ['null', null],
    ['a string', 'x'],
    ['no context', {}],
    ['hashes of the wrong type', answer({ hotHashData: 5, coldHashData: {} })],
  ])('an answer with no hash to compare (%s) asks for nothing', (_case, body) => {
    expect(configInfoNamesHashesOf(undefined, body)).toBe(true);
  });
});
