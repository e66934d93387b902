import type { Storyboard } from '../../../streams/config/streamingData';
import { storyboardFrame } from '../../../streams/player/storyboardFrame';

const board: Storyboard = {
  sheetUrls: ['/s/sheet-000.jpg', '/s/sheet-001.jpg'],
  intervalSeconds: 2,
  columns: 3,
  rows: 2,
  thumbWidth: 160,
  thumbHeight: 90,
  count: 8,
};

describe('storyboardFrame', () => {
  it('maps a time to its thumbnail: sheet, column and row in reading order', () => {
    expect(storyboardFrame(board, 0)).toEqual({ sheetUrl: '/s/sheet-000.jpg', x: 0, y: 0, w: 160, h: 90 });
    // 5.9 s → thumbnail 2: first sheet, third column.
    expect(storyboardFrame(board, 5.9)).toEqual({ sheetUrl: '/s/sheet-000.jpg', x: 320, y: 0, w: 160, h: 90 });
    // 8 s → thumbnail 4: first sheet, second row, second column.
    expect(storyboardFrame(board, 8)).toEqual({ sheetUrl: '/s/sheet-000.jpg', x: 160, y: 90, w: 160, h: 90 });
    // 14 s → thumbnail 7: second sheet (6 per sheet), its thumbnail 1.
    expect(storyboardFrame(board, 14)).toEqual({ sheetUrl: '/s/sheet-001.jpg', x: 160, y: 0, w: 160, h: 90 });
  });

  it('clamps to the thumbnails there are', () => {
    expect(storyboardFrame(board, 1000)).toEqual({ sheetUrl: '/s/sheet-001.jpg', x: 160, y: 0, w: 160, h: 90 });
    expect(storyboardFrame(board, -3)).toEqual({ sheetUrl: '/s/sheet-000.jpg', x: 0, y: 0, w: 160, h: 90 });
  });

  it('is null without a storyboard, without thumbnails, or when the sheet is missing', () => {
    expect(storyboardFrame(undefined, 3)).toBeNull();
    expect(storyboardFrame({ ...board, count: 0 }, 3)).toBeNull();
    expect(storyboardFrame({ ...board, sheetUrls: ['/s/sheet-000.jpg'] }, 14)).toBeNull();
    expect(storyboardFrame({ ...board, intervalSeconds: 0 }, 3)).toBeNull();
    expect(storyboardFrame(board, NaN)).toBeNull();
  });
});
