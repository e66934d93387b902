/**
 * The bandwidth schedules of the adaptive benchmark, replayed second by second by the shaping proxy
 * (`bench/abr/shapingProxy.ts`). Each is given for a play of `seconds`; its steps past the end do not matter.
 */
import type { BandwidthStep } from './shapingProxy';

export interface Schedule {
  name: string;
  description: string;
  steps(seconds: number): BandwidthStep[];
}

const constant = (kbps: number) => () => [{ atSeconds: 0, kbps }];

export const SCHEDULES: readonly Schedule[] = [
  { name: 'const-300k', description: 'constant 300 kbps', steps: constant(300) },
  { name: 'const-5M', description: 'constant 5 Mbps', steps: constant(5000) },
  {
    name: 'step-down',
    description: '5 Mbps, 500 kbps from 20 s',
    steps: () => [
      { atSeconds: 0, kbps: 5000 },
      { atSeconds: 20, kbps: 500 },
    ],
  },
  {
    name: 'step-up',
    description: '500 kbps, 5 Mbps from 20 s',
    steps: () => [
      { atSeconds: 0, kbps: 500 },
      { atSeconds: 20, kbps: 5000 },
    ],
  },
  {
    name: 'oscillate',
    description: '1 Mbps and 3 Mbps by turns, every 10 s',
    steps: (seconds) => Array.from({ length: Math.ceil(seconds / 10) + 1 }, (_, i) => ({ atSeconds: i * 10, kbps: i % 2 ? 3000 : 1000 })),
  },
  {
    name: 'outage',
    description: '3 Mbps, nothing from 20 s to 30 s',
    steps: () => [
      { atSeconds: 0, kbps: 3000 },
      { atSeconds: 20, kbps: 0 },
      { atSeconds: 30, kbps: 3000 },
    ],
  },
];

/** The schedules named in `names` (comma-separated), all when empty; throws on an unknown name. */
export function schedulesNamed(names: string | undefined): Schedule[] {
  if (!names) return [...SCHEDULES];
  return names.split(',').map((name) => {
    const found = SCHEDULES.find((s) => s.name === name.trim());
    if (!found) throw new Error(`abr: no schedule "${name}" (${SCHEDULES.map((s) => s.name).join(', ')})`);
    return found;
  });
}
