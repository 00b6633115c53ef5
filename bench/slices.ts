// Get-by-id against the bare server in alternating short slices, bare first and last: each service
// slice is compared with the faster bare slice beside it, seconds apart. The suite's rounds compare
// runs that are half a minute apart, and on these VMs the machine's speed can swing by a third in
// that time; here a swing shows as spread between slices instead of as one run's bias.
import { type LoadRequest, type LoadResult, runLoad } from './load.ts';
import { median } from './median.ts';

export interface SliceSettings {
  /** Service slices; there is one bare slice more. */
  slices: number;
  seconds: number;
  /** Untimed load before each slice, on fresh connections as the timed one. */
  warmupSeconds: number;
  connections: number;
}

export interface SliceFigures {
  serviceRps: number[];
  bareRps: number[];
  /** Each service slice's rps over the faster of the two bare slices beside it. */
  ratios: number[];
  medianRatio: number;
  /** Failed requests over every slice: a slice with any is not a measurement. */
  failures: number;
  settings: SliceSettings;
}

interface SliceTarget {
  url: string;
  requests: LoadRequest[];
}

export async function timeInSlices(
  service: SliceTarget,
  bare: SliceTarget,
  settings: SliceSettings,
): Promise<SliceFigures> {
  const { connections, seconds, warmupSeconds } = settings;
  const results: LoadResult[] = [];
  const time = async (target: SliceTarget) => {
    const result = await runLoad({ ...target, connections, seconds, warmupSeconds });
    results.push(result);
    return result.rps;
  };
  const bareRps = [await time(bare)];
  const serviceRps: number[] = [];
  for (let slice = 0; slice < settings.slices; slice++) {
    serviceRps.push(await time(service));
    bareRps.push(await time(bare));
  }
  const ratios = serviceRps.map((rps, i) => rps / Math.max(bareRps[i] ?? 0, bareRps[i + 1] ?? 0));
  return {
    serviceRps,
    bareRps,
    ratios,
    medianRatio: median(ratios),
    failures: results.reduce((sum, r) => sum + r.failures, 0),
    settings,
  };
}

export function describeSlices(db: string, figures: SliceFigures): string {
  const { settings } = figures;
  const percent = (ratio: number) => `${(100 * ratio).toFixed(1)} %`;
  return (
    `get-by-id on ${db} in ${settings.slices} slices of ${settings.seconds} s between bare ones, each against ` +
    `the faster bare slice beside it: ${figures.ratios.map(percent).join(', ')}; median ${percent(figures.medianRatio)}` +
    `${figures.failures > 0 ? `; ${figures.failures} failed requests` : ''}. Service ` +
    `${figures.serviceRps.map(Math.round).join(', ')} rps; bare ${figures.bareRps.map(Math.round).join(', ')} rps`
  );
}
