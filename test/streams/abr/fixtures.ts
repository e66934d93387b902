import type { Rung } from '../../../streams/abr/abrRules';

/** The H.264 ladder of docs/adaptive-streaming.md at its nominal bitrates (no listed segment sizes). */
export const ladder: Rung[] = [
  { quality: 'tiny', bitrate: 110_000 },
  { quality: 'small', bitrate: 250_000 },
  { quality: 'medium', bitrate: 500_000 },
  { quality: 'large', bitrate: 900_000 },
  { quality: 'hd720', bitrate: 1_800_000 },
  { quality: 'hd1080', bitrate: 3_500_000 },
];
