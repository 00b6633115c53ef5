// What the bookkeeping preferences API does (docs/decisions/bookkeeping.md). Routes parse and shape;
// these decide.
import { checkMetadata } from '../accounts/operations.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database, Queryable } from '../db/database.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { recordUpdate } from '../webhooks/record-change.ts';
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
  return (await store.findPreferences(db, company)) ?? defaultsOf(company);
}

/**
 * A full replacement: an omitted metadata becomes null. The last of concurrent PUTs stands. Records
 * `v1.bookkeeping-preferences.updated` against what GET answered before (the defaults before the
 * first PUT), unless nothing but updatedAt changed.
 */
export async function putPreferences(
  db: Database,
  principal: Principal,
  input: BookkeepingPreferencesWrite,
): Promise<BookkeepingPreferences> {
  assertCompanyAccess(principal, input.companyId);
  const fields = {
    bookkeepingMethod: input.bookkeepingMethod,
    exportExpensesAsPositiveAmounts: input.exportExpensesAsPositiveAmounts,
    exportFormat: input.exportFormat,
    metadata: checkMetadata(input.metadata ?? null),
  };
  return db.transaction(async (tx) => {
    const { before, after } = await replacePreferences(tx, input.companyId.toLowerCase(), fields);
    await recordUpdate(tx, 'v1.bookkeeping-preferences.updated', before, after);
    return after;
  });
}

/**
 * Stores the fields, answering the preferences as GET showed them before (locked until the
 * transaction ends) and after. A company's first PUT inserts; when a concurrent first PUT inserted
 * in the moment between, its row is what this one replaces, so each PUT's `before` is the one it
 * really replaced.
 */
async function replacePreferences(
  tx: Queryable,
  companyId: string,
  fields: store.PreferenceFields,
): Promise<{ before: BookkeepingPreferences; after: BookkeepingPreferences }> {
  for (let round = 0; round < 2; round++) {
    const stored = await store.findPreferences(tx, companyId, { forUpdate: true });
    if (stored) return { before: stored, after: await store.updatePreferences(tx, companyId, fields) };
    const inserted = await store.insertPreferences(tx, companyId, fields);
    if (inserted) return { before: defaultsOf(companyId), after: inserted };
  }
  // Preferences are never deleted: the row that stopped the insert is there on the second round.
  throw new Error(`the preferences of ${companyId} are neither stored nor insertable`);
}

function defaultsOf(companyId: string): BookkeepingPreferences {
  return { companyId, ...DEFAULT_PREFERENCES, updatedAt: null };
}
