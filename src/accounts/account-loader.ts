// Get-by-id under load: the lookups that arrive in one turn of the event loop are answered by a
// single `id = ANY(…)` query, so ten concurrent requests cost the database one statement, not ten.
import DataLoader from 'dataloader';
import type { Database, Queryable } from '../db/database.ts';
import { type AccountJson, findAccountsByIds } from './store.ts';

type LoaderDatabase = Queryable & Pick<Database, 'afterPendingIo'>;

const loaders = new WeakMap<LoaderDatabase, DataLoader<string, AccountJson | undefined>>();

/** The account with this id, whatever its company; callers check the company. */
export function loadAccount(db: LoaderDatabase, id: string): Promise<AccountJson | undefined> {
  let loader = loaders.get(db);
  if (!loader) {
    loader = new DataLoader((ids) => findAccountsByIds(db, ids), {
      // Nothing is cached: every request reads the current row.
      cache: false,
      maxBatchSize: 100,
      // After the I/O of this turn, not after this request's microtasks: that is what lets
      // requests of different connections share a batch.
      batchScheduleFn: (callback) => db.afterPendingIo(callback),
    });
    loaders.set(db, loader);
  }
  return loader.load(id.toLowerCase());
}
