import { earlyMediaOf, initialPlayerModel } from '../../../streams/player/playerModel';
import { reducePlayer, type PlayerAction } from '../../../streams/player/reducePlayer';
import { PlayerState } from '../../../streams/player/playerState';
import { configFor } from './fixtures';

/** The source the engine gives the element on its first mount, for this configuration. */
function firstSourceOf(vars: Record<string, string>) {
  const config = configFor(vars);
  const autoplay = config.args.autoplay !== '0';
  const step = reducePlayer(
    initialPlayerModel(config),
    { type: 'videoResponse', seq: 0, response: config.args.player_response, autoplay },
    { currentTime: 0, state: PlayerState.UNSTARTED, random: () => 0 },
  );
  return step.actions.find((a): a is Extract<PlayerAction, { type: 'source' }> => a.type === 'source');
}

describe('earlyMediaOf: the <video> the server writes with the page', () => {
  it.each<Record<string, string>>([{}, { autoplay: '1' }, { autoplay: '1', mute: '1', start: '4' }])(
    'has the very source the engine gives the element first (%j)',
    (vars) => {
      const early = earlyMediaOf(configFor(vars));
      const source = firstSourceOf(vars);
      expect(source?.url).toBeTruthy();
      expect(early?.src).toBe(source?.url);
      // The engine sets `preload` from whether it plays: the element written with the page has the same.
      expect(early?.preload).toBe(source?.play ? 'auto' : 'metadata');
    },
  );

  it('carries mute, playsinline and the poster as the player would set them', () => {
    expect(earlyMediaOf(configFor({}))).toMatchObject({ muted: false, playsInline: true, preload: 'metadata', autoplay: false });
    expect(earlyMediaOf(configFor({ mute: '1', playsinline: '0', autoplay: '1' }))).toMatchObject({
      muted: true,
      playsInline: false,
      preload: 'auto',
      autoplay: true,
    });
    // A start position is the script's to seek to before playing: the browser must not start at 0 on its own.
    expect(earlyMediaOf(configFor({ autoplay: '1', mute: '1', start: '4' }))).toMatchObject({ preload: 'auto', autoplay: false });
    // With sound it waits for the script, which applies the viewer's stored volume and mute first.
    expect(earlyMediaOf(configFor({ autoplay: '1' }))).toMatchObject({ preload: 'auto', autoplay: false });
    const config = configFor({});
    config.args.player_response.videoDetails!.thumbnailUrl = '/vi/VFsunrise01/poster';
    expect(earlyMediaOf(config)?.poster).toBe('/vi/VFsunrise01/poster');
    expect(earlyMediaOf(config)?.title).toBe('Title VFsunrise01');
  });

  it('is undefined when the first source is not known before the page runs', () => {
    expect(earlyMediaOf(configFor({ list: 'PLsamples' }))).toBeUndefined(); // a playlist to fetch
    const unplayable = configFor({});
    unplayable.args.player_response = { playabilityStatus: { status: 'ERROR', errorCode: 'fmt.unplayable' } };
    expect(earlyMediaOf(unplayable)).toBeUndefined();
    const noFormats = configFor({});
    noFormats.args.player_response.streamingData = { formats: [] };
    expect(earlyMediaOf(noFormats)).toBeUndefined();
  });
});
