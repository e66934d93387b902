import { documentVisibility } from '../../../streams/sources/documentVisibility';

describe('documentVisibility', () => {
  it('keeps visible and hidden and reads everything else as unknown, never throwing', () => {
    expect(documentVisibility(() => 'visible')).toBe('visible');
    expect(documentVisibility(() => 'hidden')).toBe('hidden');
    expect(documentVisibility(() => 'prerender')).toBeUndefined();
    expect(documentVisibility(() => 42)).toBeUndefined();
    expect(documentVisibility()).toBeUndefined();
    expect(
      documentVisibility(() => {
        throw new Error('detached document');
      }),
    ).toBeUndefined();
  });
});
