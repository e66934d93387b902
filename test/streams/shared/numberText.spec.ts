import { decimalCounter, numberText } from '../../../streams/shared/numberText';

describe('numberText', () => {
  it('writes every number exactly as String does', () => {
    const numbers = [
      0,
      -0,
      1,
      -1,
      7,
      255,
      640,
      2 ** 31 - 1,
      2 ** 31,
      -(2 ** 31),
      1764000000123,
      Number.MAX_SAFE_INTEGER,
      0.1 + 0.2,
      12.008,
      -3.5,
      1e21,
      1.5e-7,
      1e-6,
      5e-324,
      Number.MAX_VALUE,
      NaN,
      Infinity,
      -Infinity,
    ];
    for (const n of numbers) expect([n, numberText(n)]).toEqual([n, String(n)]);
  });

  it('writes what String writes for a value that is not a number after all (untyped input), never a wrong number', () => {
    for (const v of [undefined, null, '5', true, { a: 1 }, 5n] as unknown[]) expect(numberText(v as number)).toBe(String(v));
  });

  it('agrees with String on many random numbers, integers and fractions', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 2000; i++) {
      const n = i % 2 ? Math.round((random() - 0.5) * 2 ** 40) : (random() - 0.5) * 10 ** Math.round(random() * 40 - 20);
      expect(numberText(n)).toBe(String(n));
    }
  });

  it('decimalCounter counts 1, 2, 3, … as text, across every carry', () => {
    const next = decimalCounter();
    const texts = Array.from({ length: 120_000 }, () => next());
    expect(texts.every((text, i) => text === String(i + 1))).toBe(true);
    expect(texts.slice(0, 3)).toEqual(['1', '2', '3']);
    expect(texts[99_999]).toBe('100000');
  });

  it('each decimalCounter counts on its own', () => {
    const a = decimalCounter();
    const b = decimalCounter();
    expect([a(), a(), b(), a()]).toEqual(['1', '2', '1', '3']);
  });
});
