/**
 * What the adaptive benchmark reads in every player's page: the `<video>` element alone, through the same script
 * injected into every frame before its own scripts run, so that no player reports on itself. It finds the page's
 * `<video>` (again if the page replaces it), records its events with the wall clock, the media time, the rendition's
 * height and the ready state, and samples the same every {@link PROBE_SAMPLE_MS} ms. The harness reads `__abr` once the
 * play is over; the figures are computed in Node (`bench/abr/metrics.ts`).
 *
 * Plain JavaScript in a string: the bench's TypeScript loader would wrap named functions in a helper the page lacks.
 */

/** [type, epoch ms, currentTime, videoHeight, readyState] */
export type ProbeEvent = [type: string, t: number, ct: number, height: number, readyState: number];
/** [epoch ms, currentTime, videoHeight, paused (1) or not (0), readyState] */
export type ProbeSample = [t: number, ct: number, height: number, paused: number, readyState: number];

export interface Probe {
  found: boolean;
  events: ProbeEvent[];
  samples: ProbeSample[];
}

export const PROBE_SAMPLE_MS = 200;

const EVENTS = ['loadedmetadata', 'playing', 'waiting', 'pause', 'seeking', 'seeked', 'ended', 'resize', 'error'];

export const PROBE_SCRIPT = `(() => {
  if (window.__abr) return;
  const abr = { found: false, events: [], samples: [] };
  window.__abr = abr;
  let video = null;
  const attach = (v) => {
    video = v;
    abr.found = true;
    for (const type of ${JSON.stringify(EVENTS)}) {
      v.addEventListener(type, () => { if (video === v) abr.events.push([type, Date.now(), v.currentTime, v.videoHeight, v.readyState]); });
    }
  };
  setInterval(() => {
    const v = document.querySelector('video');
    if (v && v !== video) attach(v);
    if (video) abr.samples.push([Date.now(), video.currentTime, video.videoHeight, video.paused ? 1 : 0, video.readyState]);
  }, ${PROBE_SAMPLE_MS});
  const early = setInterval(() => {
    const v = document.querySelector('video');
    if (v && v !== video) attach(v);
    if (video) clearInterval(early);
  }, 10);
})();`;
