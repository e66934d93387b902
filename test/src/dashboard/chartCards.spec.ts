import { CHART_CARDS } from '../../../src/dashboard/chartCards';

const card = (key: string) => CHART_CARDS.find((c) => c.key === key)!;

describe('the y axes of the dashboard charts', () => {
  it('say the unit of a value that is not a count: milliseconds and seconds, time watched, a share, a bitrate', () => {
    expect([250, 850, 1200].map(card('latency').axis!)).toEqual(['250 ms', '850 ms', '1.2 s']);
    expect([400, 2500].map(card('startup').axis!)).toEqual(['400 ms', '2.5 s']);
    expect([30, 90].map(card('watch').axis!)).toEqual(['30 s', '1 min 30 s']);
    expect([0.05, 0.005].map(card('rebuffer').axis!)).toEqual(['5 %', '0.5 %']);
    expect([750_000, 2_500_000].map(card('bitrate').axis!)).toEqual(['750 kbps', '2.5 Mbps']);
  });

  it('show counts as bare numbers: the card names what they count', () => {
    for (const key of ['events', 'sessions', 'states', 'errors']) expect(card(key).axis).toBeUndefined();
  });
});
