// A create that names a taken externalId replays (200 with the stored record) when every field is
// the same, and conflicts (409 with existingId) when not, as account creates do
// (docs/decisions/bookkeeping.md). The unique index decides concurrent creates.
import { isDeepStrictEqual } from 'node:util';
import type { ApiError } from '../http/problem.ts';

export interface CreateOrReplay<T> {
  /** Inserts the record; undefined when its externalId is taken. */
  insert: () => Promise<T | undefined>;
  /** The stored record with the requested externalId, if any. */
  findTaken: () => Promise<T | undefined>;
  /** The requested fields as the API shows them, compared with the stored record's. */
  requested: Record<string, unknown>;
  /** The 409 for a taken externalId, naming the record that has it when there is one. */
  conflict: (existingId?: string) => ApiError;
}

export async function createOrReplay<T extends { id: string }>(
  create: CreateOrReplay<T>,
): Promise<{ record: T; created: boolean }> {
  // Two rounds: the record holding the externalId may be deleted between the insert and the read.
  for (let round = 0; round < 2; round++) {
    const inserted = await create.insert();
    if (inserted) return { record: inserted, created: true };
    const taken = await create.findTaken();
    if (!taken) continue;
    if (isReplayOf(taken, create.requested)) return { record: taken, created: false };
    throw create.conflict(taken.id);
  }
  throw create.conflict();
}

/** Whether the stored record has every requested field as requested: the create is a replay. */
export function isReplayOf(stored: object, requested: Record<string, unknown>): boolean {
  const fields = stored as Record<string, unknown>;
  return Object.entries(requested).every(([field, value]) => isDeepStrictEqual(fields[field], value));
}
