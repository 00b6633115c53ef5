// What the accounting entries API does, one function per operation
// (docs/decisions/tax-codes-and-entries.md). Routes parse and shape; these decide.
import { unknownAccount } from '../accounts/operations.ts';
import type { Principal } from '../auth/principal.ts';
import { type Database, isPgError, PG_FOREIGN_KEY_VIOLATION } from '../db/database.ts';
import type { PagePosition } from '../db/keyset-page.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { ApiError } from '../http/problem.ts';
import { lowerIds } from '../http/schemas.ts';
import { recordEvent } from '../webhooks/record-event.ts';
import type { AccountingEntry, AccountingEntryCreate, AccountingEntrySearch } from './schemas.ts';
import * as store from './store.ts';

/**
 * 201 with the entry, and its v1.accounting-entry.created; 400 UNKNOWN_ACCOUNT unless accountId is
 * an account of the same company.
 */
export async function createAccountingEntry(
  db: Database,
  principal: Principal,
  input: AccountingEntryCreate,
): Promise<AccountingEntry> {
  assertCompanyAccess(principal, input.companyId);
  const entry = {
    companyId: input.companyId.toLowerCase(),
    accountId: input.accountId.toLowerCase(),
    amount: input.amount,
    currency: input.currency,
    date: input.date,
    description: input.description ?? null,
  };
  let row: AccountingEntry | undefined;
  try {
    row = await db.transaction(async (tx) => {
      const inserted = await store.insertAccountingEntry(tx, entry);
      if (inserted)
        await recordEvent(tx, { eventType: 'v1.accounting-entry.created', companyId: entry.companyId, data: inserted });
      return inserted;
    });
  } catch (error) {
    // The account was deleted between the statement's read of it and its foreign key check.
    if (!isPgError(error, PG_FOREIGN_KEY_VIOLATION)) throw error;
  }
  if (!row) throw unknownAccount(entry.companyId, entry.accountId);
  return row;
}

export async function getAccountingEntry(db: Database, principal: Principal, id: string): Promise<AccountingEntry> {
  const row = await store.findAccountingEntry(db, id, [...principal.companies]);
  if (!row) throw accountingEntryNotFound(id);
  return row;
}

/** Deletes the entry with its v1.accounting-entry.deleted, which carries its last state. */
export async function deleteAccountingEntry(db: Database, principal: Principal, id: string): Promise<void> {
  const deleted = await db.transaction(async (tx) => {
    const entry = await store.deleteAccountingEntry(tx, id, [...principal.companies]);
    if (entry)
      await recordEvent(tx, { eventType: 'v1.accounting-entry.deleted', companyId: entry.companyId, data: entry });
    return entry;
  });
  if (!deleted) throw accountingEntryNotFound(id);
}

export async function searchAccountingEntries(
  db: Database,
  principal: Principal,
  filters: store.AccountingEntryFilters,
  position: PagePosition,
) {
  assertCompanyAccess(principal, filters.companyId);
  const page = await store.searchAccountingEntries(db, filters, position);
  return page;
}

/** The normalised filters of a search body; also what its cursors are bound to. */
export function toAccountingEntryFilters(body: AccountingEntrySearch): store.AccountingEntryFilters {
  return {
    companyId: body.companyId.toLowerCase(),
    ids: lowerIds(body.ids),
    accountIds: lowerIds(body.accountIds),
    dateFrom: body.dateFrom ?? null,
    dateTo: body.dateTo ?? null,
  };
}

function accountingEntryNotFound(id: string): ApiError {
  return new ApiError('ACCOUNTING_ENTRY_NOT_FOUND', `No accounting entry ${id}`);
}
