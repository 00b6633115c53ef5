// What the bookkeeping preferences API does (docs/decisions/bookkeeping.md). Routes parse and shape;
// these decide.
import { checkMetadata } from '../accounts/operations.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/database.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import type { BookkeepingPreferences, BookkeepingPreferencesWrite } from './schemas.ts';
import * as store from './store.ts';

/** What a company that never stored its preferences has: nothing booked, the product's usual export. */
export const DEFAULT_PREFERENCES: store.PreferenceFields = {
  bookkeepingMethod: 'NONE',
  exportExpensesAsPositiveAmounts: false,
  exportFormat: 'MULTI_LINE',
  metadata: null,
};

/** The company's stored preferences, or the defaults (updatedAt null) before the first PUT. */
export async function getPreferences(
  db: Database,
  principal: Principal,
  companyId: string,
): Promise<BookkeepingPreferences> {
  assertCompanyAccess(principal, companyId);
  const company = companyId.toLowerCase();
  return (await store.findPreferences(db, company)) ?? { companyId: company, ...DEFAULT_PREFERENCES, updatedAt: null };
}

/** A full replacement: an omitted metadata becomes null. The last of concurrent PUTs stands. */
export async function putPreferences(
  db: Database,
  principal: Principal,
  input: BookkeepingPreferencesWrite,
): Promise<BookkeepingPreferences> {
  assertCompanyAccess(principal, input.companyId);
  return store.upsertPreferences(db, input.companyId.toLowerCase(), {
    bookkeepingMethod: input.bookkeepingMethod,
    exportExpensesAsPositiveAmounts: input.exportExpensesAsPositiveAmounts,
    exportFormat: input.exportFormat,
    metadata: checkMetadata(input.metadata ?? null),
  });
}
