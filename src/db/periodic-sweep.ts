// Runs a sweep now and then in a worker process: a batch statement called until a batch comes back
// short, so a backlog (after an outage, say) is caught up in one sweep rather than one batch per
// interval. Sweeps never overlap within a process; across processes each batch statement claims its
// rows with SKIP LOCKED, so two sweepers never take the same rows.
import type { FastifyBaseLogger } from 'fastify';

export interface PeriodicSweepOptions<T> {
  /** Names the sweep in the log. */
  name: string;
  /** The log line of a sweep that took rows, e.g. "export jobs expired". */
  doneMessage: string;
  intervalMs: number;
  /** One batch, answering what it took; a batch that took `batchSize` or more is followed by another. */
  batch(): Promise<T[]>;
  batchSize: number;
  logger: Pick<FastifyBaseLogger, 'info' | 'error'>;
  /** Called after each sweep with every row it took (tests await this). */
  onSweep?: (taken: T[]) => void;
}

export interface PeriodicSweep {
  /** Waits for a sweep under way to finish its batch, and schedules no more. */
  stop(): Promise<void>;
}

export function startPeriodicSweep<T>(options: PeriodicSweepOptions<T>): PeriodicSweep {
  const { name, doneMessage, batch, batchSize, logger, onSweep } = options;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  // Sweeps failed in a row: while the database is gone, one error line (and one when the sweeps
  // succeed again, with the count), not one per interval.
  let failures = 0;

  const sweep = async () => {
    const taken: T[] = [];
    try {
      let rows: T[];
      do {
        rows = await batch();
        taken.push(...rows);
      } while (rows.length >= batchSize && !stopped);
      if (taken.length > 0) logger.info({ sweep: name, rows: taken.length }, doneMessage);
      if (failures > 0) logger.info({ sweep: name, failures }, `${name} sweep resumed`);
      failures = 0;
    } catch (error) {
      if (++failures === 1) {
        logger.error({ err: error, sweep: name }, `${name} sweep failed; retrying at the next interval`);
      }
    }
    onSweep?.(taken);
  };

  const sweepNext = () => {
    running = running.then(sweep);
  };
  // The first sweep starts with the process: what a killed process left under way (a retention
  // sweep, a recovery) goes on at the restart, not an interval of up to a minute later.
  sweepNext();
  const timer = setInterval(sweepNext, options.intervalMs);
  timer.unref();

  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
