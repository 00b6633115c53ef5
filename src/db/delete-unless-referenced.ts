import { isPgError, PG_STILL_REFERENCED } from './database.ts';

export type DeleteOutcome<U> = { deleted: boolean; referencedBy?: undefined } | { deleted: false; referencedBy: U[] };

/**
 * Deletes a row through `remove` (false: no such row). When a foreign key ON DELETE RESTRICT
 * refuses, `findReferences` says what holds the row; if nothing does any more (released meanwhile),
 * the delete is tried once more rather than refused with nothing to name.
 */
export async function deleteUnlessReferenced<U>(
  remove: () => Promise<boolean>,
  findReferences: () => Promise<U[]>,
): Promise<DeleteOutcome<U>> {
  let referencedBy: U[] = [];
  for (let round = 0; round < 2; round++) {
    try {
      return { deleted: await remove() };
    } catch (error) {
      if (!isPgError(error, PG_STILL_REFERENCED)) throw error;
    }
    referencedBy = await findReferences();
    if (referencedBy.length > 0) break;
  }
  return { deleted: false, referencedBy };
}
