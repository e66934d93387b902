import { pageTitle } from '../../../streams/player/pageTitle';

describe('page title (spec §2)', () => {
  it('is the video title followed by the product name', () => {
    expect(pageTitle('Sunrise')).toBe('Sunrise - VidFrame');
  });
  it.each([undefined, null, '', '   '])('is just the product name without a title (%p)', (title) => {
    expect(pageTitle(title)).toBe('VidFrame');
  });
});
