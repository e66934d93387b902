/**
 * The synthetic samples that `npm run media` puts through ingest (`makeSamples.ts`): what each one shows, as lavfi
 * graphs. Pure data and one pure function, so a test can read them.
 */

/** A synthetic source: scenes of equal length (lavfi video sources), one sine tone under all of them. */
export interface SampleSpec {
  id: string;
  title: string;
  author: string;
  size: { width: number; height: number };
  sceneSeconds: number;
  /**
   * Each scene, in order: a lavfi graph given the size and rate options every source in it takes
   * (`size=1280x720:rate=25`), ending in the scene's picture (no output label); it is cut to `sceneSeconds`.
   */
  scenes: ((source: string) => string)[];
  toneHz: number;
}

const FPS = 25;
const SAMPLE_AUTHOR = 'VidFrame Lab';

/**
 * The committed sample: 20 s at 480p (ladder tiny … large), colour bars turning through the hues with the test card
 * gliding over them: enough motion and detail to tell the rungs apart, small enough to keep in git. Every source of
 * every sample draws the same pixels on every run (ffmpeg's `gradients` does not, so none is used).
 */
export const SHORT_SAMPLE: SampleSpec = {
  id: 'VFladder001',
  title: 'Adaptive ladder',
  author: SAMPLE_AUTHOR,
  size: { width: 854, height: 480 },
  sceneSeconds: 20,
  scenes: [
    (o) =>
      `smptehdbars=${o},hue=H=2*PI*t/20[b];testsrc2=size=320x180:rate=${FPS},hue=H=2*PI*t/10[a];` +
      `[b][a]overlay=x='(W-w)/2+(W-w)/2*sin(t/2)':y='(H-h)/2+(H-h)/2*cos(t/3)'`,
  ],
  toneHz: 392,
};

/** One lavfi source as a scene, with its own options after the common ones. */
const plain =
  (name: string, options = '') =>
  (o: string) =>
    `${name}=${o}${options ? `:${options}` : ''}`;
/** Temporal noise over a scene: as costly to encode as video gets, so every rung runs at its cap. */
const noisy =
  (name: string, options = '') =>
  (o: string) =>
    `${plain(name, options)(o)},noise=alls=45:allf=t+u`;

/**
 * The long samples (720p), generated on demand: still scenes that cost next to nothing alternate with busy ones that
 * run every rung at its cap, so a segment's size swings with the content, as in a real video, and adaptation matters.
 */
export const LONG_SAMPLES: SampleSpec[] = [
  {
    id: 'VFlongmix01',
    title: 'Still and storm',
    author: SAMPLE_AUTHOR,
    size: { width: 1280, height: 720 },
    sceneSeconds: 15,
    scenes: [
      plain('smptehdbars'),
      noisy('testsrc2'),
      plain('color', 'c=0x203040'),
      plain('mandelbrot', 'maxiter=256'),
      plain('pal100bars'),
      noisy('cellauto', 'rule=110:scroll=1:seed=3'),
    ],
    toneHz: 440,
  },
  {
    id: 'VFlongmix02',
    title: 'Calm and rush',
    author: SAMPLE_AUTHOR,
    size: { width: 1280, height: 720 },
    sceneSeconds: 10,
    scenes: [
      plain('yuvtestsrc'),
      noisy('life', 'ratio=0.5:mold=10:seed=5:death_color=#203040:life_color=#e0c060'),
      plain('pal100bars'),
      noisy('mandelbrot', 'maxiter=128'),
      plain('rgbtestsrc'),
      plain('testsrc2'),
      noisy('smptehdbars'),
    ],
    toneHz: 330,
  },
];

/** The filter graph of a sample: each scene at the sample's size and rate, then all of them in a row. */
export function sourceGraph(spec: SampleSpec): string {
  const { width, height } = spec.size;
  const options = `size=${width}x${height}:rate=${FPS}`;
  const scenes = spec.scenes.map((scene, i) => `${scene(options)},trim=duration=${spec.sceneSeconds},format=yuv420p,setsar=1[s${i}]`);
  const inputs = spec.scenes.map((_, i) => `[s${i}]`).join('');
  return `${scenes.join(';')};${inputs}concat=n=${spec.scenes.length}:v=1:a=0[v]`;
}
