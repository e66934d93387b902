// Writes public/favicon.ico: the same mark as public/favicon.svg (a red rounded square with a white play triangle),
// drawn at 32×32 into a 32-bit BMP inside an ICO container, for agents that ask /favicon.ico and read no SVG.
// Run: node scripts/make-favicon.mjs (the file is committed; rerun only to change the mark).
import { writeFileSync } from 'node:fs';

const S = 32;
const RADIUS = 7;
const RED = [0xe5, 0x32, 0x2d];
const inRoundedSquare = (x, y) => {
  const cx = Math.min(Math.max(x, RADIUS), S - RADIUS);
  const cy = Math.min(Math.max(y, RADIUS), S - RADIUS);
  return (x - cx) ** 2 + (y - cy) ** 2 <= RADIUS ** 2;
};
// The triangle (12,9) (12,23) (23,16), as in the SVG.
const inTriangle = (x, y) => x >= 12 && x <= 23 && Math.abs(y - 16) <= ((23 - x) * 7) / 11;
/** Coverage of the pixel (px, py) by a shape, from 4×4 samples. */
const coverage = (inside, px, py) => {
  let n = 0;
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) if (inside(px + (i + 0.5) / 4, py + (j + 0.5) / 4)) n++;
  return n / 16;
};

const pixels = Buffer.alloc(S * S * 4);
for (let y = 0; y < S; y++)
  for (let x = 0; x < S; x++) {
    const a = coverage(inRoundedSquare, x, y);
    const w = coverage(inTriangle, x, y);
    const rgb = RED.map((c) => Math.round(c * (1 - w) + 255 * w));
    const row = S - 1 - y; // BMP rows run bottom-up
    const o = (row * S + x) * 4;
    pixels[o] = rgb[2];
    pixels[o + 1] = rgb[1];
    pixels[o + 2] = rgb[0];
    pixels[o + 3] = Math.round(a * 255);
  }
const header = Buffer.alloc(40);
header.writeUInt32LE(40, 0); // BITMAPINFOHEADER
header.writeInt32LE(S, 4);
header.writeInt32LE(S * 2, 8); // colour and mask halves
header.writeUInt16LE(1, 12);
header.writeUInt16LE(32, 14);
header.writeUInt32LE(pixels.length, 20);
const mask = Buffer.alloc((S / 8) * S); // all opaque: the alpha channel decides
const image = Buffer.concat([header, pixels, mask]);
const dir = Buffer.alloc(6 + 16);
dir.writeUInt16LE(0, 0);
dir.writeUInt16LE(1, 2); // icon
dir.writeUInt16LE(1, 4); // one image
dir.writeUInt8(S, 6);
dir.writeUInt8(S, 7);
dir.writeUInt16LE(1, 10); // planes
dir.writeUInt16LE(32, 12); // bits per pixel
dir.writeUInt32LE(image.length, 14);
dir.writeUInt32LE(22, 18);
writeFileSync(new URL('../public/favicon.ico', import.meta.url), Buffer.concat([dir, image]));
