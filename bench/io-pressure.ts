// Whether the machine waited on its disk during a measurement: Linux's pressure-stall figure for I/O
// (/proc/pressure/io, "some": the time at least one task was stalled waiting for I/O). A page figure
// taken while the disk was read says more about the disk than about the service (a VM that reclaims
// its page cache sends a PostgreSQL walk to the disk: docs/decisions/performance-findings.md).
import { readFileSync } from 'node:fs';

/** Microseconds some task has been stalled on I/O since boot; undefined where Linux does not say. */
function ioStallMicroseconds(): number | undefined {
  try {
    const some = readFileSync('/proc/pressure/io', 'utf8')
      .split('\n')
      .find((line) => line.startsWith('some '));
    const total = some?.match(/total=(\d+)/)?.[1];
    return total === undefined ? undefined : Number(total);
  } catch {
    return undefined;
  }
}

/** Starts a stopwatch of I/O stall; the returned function gives the share of the time since, in %. */
export function startIoStallWatch(): () => number | undefined {
  const before = ioStallMicroseconds();
  const started = performance.now();
  return () => {
    const after = ioStallMicroseconds();
    if (before === undefined || after === undefined) return undefined;
    return ((after - before) / ((performance.now() - started) * 1000)) * 100;
  };
}
