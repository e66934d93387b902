// A plain Node ESM script on the installed package: real exports, not only types.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as vidframe from 'vidframe';

assert.equal(typeof vidframe.Player, 'function');
assert.match(Function.prototype.toString.call(vidframe.Player), /^class /);
for (const method of ['playVideo', 'seekTo', 'setSphericalProperties', 'getSphericalProperties', 'getPlaybackQuality', 'destroy']) {
  assert.equal(typeof vidframe.Player.prototype[method], 'function', method);
}
assert.equal(vidframe.PlayerState.PLAYING, 1);
assert.equal(vidframe.PlayerState.CUED, 5);
assert.equal(vidframe.isValidVideoId('VFsunrise01'), true);
assert.equal(
  vidframe.buildEmbedUrl({
    host: 'https://embed.example/',
    videoId: 'VFsunrise01',
    pageOrigin: 'https://host.example',
    widgetId: 3,
    playerVars: { mute: true },
  }),
  'https://embed.example/embed/VFsunrise01?enablejsapi=1&origin=https%3A%2F%2Fhost.example&widgetid=3&mute=1',
);
assert.equal(vidframe.toVideoQuality('auto'), 'default');
const require = createRequire(import.meta.url);
const manifest = JSON.parse(await readFile(require.resolve('vidframe/package.json'), 'utf8'));
assert.equal(manifest.name, 'vidframe');
console.log(`vidframe ${manifest.version}: ${Object.keys(vidframe).sort().join(' ')}`);
