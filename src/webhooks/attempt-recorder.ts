// Attempts end one at a time. Recorded one statement each, every notification would cost the
// database a commit, and the database would set the pace of delivery. The recorder writes the
// attempts that end while its previous write runs as one statement: under load one commit covers
// many attempts, and when the database keeps up an attempt waits for nothing but its own write.
import type { AttemptRecord, RecordedAttempt } from './delivery-store.ts';

export type RecordAttempts = (records: readonly AttemptRecord[]) => Promise<(RecordedAttempt | undefined)[]>;

export interface AttemptRecorder {
  /** Resolves once the attempt is stored: what was stored, or undefined when the lease was lost. */
  record(record: AttemptRecord): Promise<RecordedAttempt | undefined>;
}

interface Pending {
  record: AttemptRecord;
  resolve: (recorded: RecordedAttempt | undefined) => void;
  reject: (error: unknown) => void;
}

export function createAttemptRecorder(write: RecordAttempts, maxBatch = 256): AttemptRecorder {
  const queue: Pending[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    // Attempts whose responses arrived in this turn of the event loop join the first write.
    await new Promise((resolve) => setImmediate(resolve));
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      try {
        const recorded = await write(batch.map((pending) => pending.record));
        for (const [i, pending] of batch.entries()) pending.resolve(recorded[i]);
      } catch (error) {
        // Nothing of the batch is stored: each message's lease runs out and it is sent again.
        for (const pending of batch) pending.reject(error);
      }
    }
    writing = false;
  }

  return {
    record(record) {
      return new Promise((resolve, reject) => {
        queue.push({ record, resolve, reject });
        if (writing) return;
        writing = true;
        void drain();
      });
    },
  };
}
