import { useEffect, useRef } from 'react';
import type { ChartData, ChartFactory, ChartHandle, ChartSpec, ChartTheme } from './charts';

/**
 * A chart drawn by the injected factory into a div React leaves alone: created once per spec and theme (a new colour
 * scheme redraws it with the latest data), fed new data as it comes, destroyed on unmount.
 */
export function TimeChart({ factory, spec, theme, data }: { factory: ChartFactory; spec: ChartSpec; theme: ChartTheme; data: ChartData }) {
  const holder = useRef<HTMLDivElement>(null);
  const chart = useRef<ChartHandle | null>(null);
  const latest = useRef(data);

  useEffect(() => {
    const handle = factory(holder.current!, spec, theme, latest.current);
    chart.current = handle;
    return () => {
      chart.current = null;
      handle.destroy();
    };
  }, [factory, spec, theme]);

  useEffect(() => {
    latest.current = data;
    chart.current?.setData(data);
  }, [data]);

  return <div className="chart" ref={holder} />;
}
