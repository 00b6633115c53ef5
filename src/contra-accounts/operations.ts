// What the contra accounts API does, one function per operation (docs/decisions/bookkeeping.md).
// Routes parse and shape; these decide.
import { checkMetadata, unknownAccount } from '../accounts/operations.ts';
import { companyHasAccount } from '../accounts/store.ts';
import type { Principal } from '../auth/principal.ts';
import { createOrReplay } from '../bookkeeping-categories/create-or-replay.ts';
import { type Database, isPgError, PG_FOREIGN_KEY_VIOLATION, type Queryable } from '../db/database.ts';
import type { PagePosition } from '../db/keyset-page.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { ApiError, validationError } from '../http/problem.ts';
import { lowerIds } from '../http/schemas.ts';
import { recordCreation, recordDeletions, recordUpdate } from '../webhooks/record-change.ts';
import {
  type ContraAccount,
  type ContraAccountCreate,
  type ContraAccountSearch,
  type ContraAccountUpdate,
  CURRENCY_KIND,
} from './schemas.ts';
import * as store from './store.ts';

/**
 * 201 for a new contra account, with its `v1.contra-account.created` event in the same transaction;
 * 200 (no event) when the company's contra account of the same kind and currency
 * (or externalId) has exactly the requested fields (a safe replay); else 409 with its id. The unique
 * indexes decide concurrent creates, so there is never a second one. 400 UNKNOWN_ACCOUNT unless
 * accountId is an account of the same company.
 */
export async function createContraAccount(
  db: Database,
  principal: Principal,
  input: ContraAccountCreate,
): Promise<{ record: ContraAccount; created: boolean }> {
  assertCompanyAccess(principal, input.companyId);
  const row: store.NewContraAccount = {
    companyId: input.companyId.toLowerCase(),
    externalId: input.externalId ?? null,
    kind: input.kind,
    currency: checkCurrency(input.kind, input.currency ?? null),
    accountId: input.accountId.toLowerCase(),
    metadata: checkMetadata(input.metadata ?? null),
  };
  return db.transaction(async (tx) => {
    const outcome = await createOrReplay({
      insert: () => insertOrUnknownAccount(tx, row),
      findTaken: async () => {
        if (!(await companyHasAccount(tx, row.companyId, row.accountId))) {
          throw unknownAccount(row.companyId, row.accountId);
        }
        return findConflicting(tx, row);
      },
      requested: { ...row },
      conflict: (existingId) =>
        new ApiError(
          'CONTRA_ACCOUNT_ALREADY_EXISTS',
          existingId
            ? `Contra account ${existingId} has the kind and currency or the externalId asked for`
            : `The company's ${kindName(row)} is being changed; retry`,
          existingId ? { existingId } : {},
        ),
    });
    if (outcome.created) await recordCreation(tx, 'v1.contra-account.created', outcome.record);
    return outcome;
  });
}

/** The company's contra account of the same kind and currency, else the one of the same externalId. */
async function findConflicting(db: Queryable, row: store.NewContraAccount): Promise<ContraAccount | undefined> {
  const sameKind = await store.findContraAccountByKind(db, row.companyId, row.kind, row.currency);
  if (sameKind || row.externalId === null) return sameKind;
  return store.findContraAccountByExternalId(db, row.companyId, row.externalId);
}

export async function getContraAccount(db: Database, principal: Principal, id: string): Promise<ContraAccount> {
  const row = await store.findContraAccount(db, id, [...principal.companies]);
  if (!row) throw contraAccountNotFound(id);
  return row;
}

/**
 * A full replacement of the mutable fields (the account and metadata; kind and currency are what the
 * contra account is): an omitted metadata becomes null. Records `v1.contra-account.updated` unless
 * nothing but updatedAt changed.
 */
export async function updateContraAccount(
  db: Database,
  principal: Principal,
  id: string,
  input: ContraAccountUpdate,
): Promise<ContraAccount> {
  const changes = { accountId: input.accountId.toLowerCase(), metadata: checkMetadata(input.metadata ?? null) };
  return db.transaction(async (tx) => {
    const current = await store.findContraAccount(tx, id, [...principal.companies], { forUpdate: true });
    if (!current) throw contraAccountNotFound(id);
    // Held until commit: the account cannot be deleted between this check and the update.
    if (!(await companyHasAccount(tx, current.companyId, changes.accountId, { keyShare: true }))) {
      throw unknownAccount(current.companyId, changes.accountId);
    }
    const updated = await store.updateContraAccount(tx, id, changes);
    await recordUpdate(tx, 'v1.contra-account.updated', current, updated);
    return updated;
  });
}

/** Nothing refers to a contra account: it can always be deleted. Its event carries its last state. */
export async function deleteContraAccount(db: Database, principal: Principal, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await store.deleteContraAccount(tx, id, [...principal.companies]);
    if (!deleted) throw contraAccountNotFound(id);
    await recordDeletions(tx, 'v1.contra-account.deleted', [deleted]);
  });
}

export async function searchContraAccounts(
  db: Database,
  principal: Principal,
  filters: store.ContraAccountFilters,
  position: PagePosition,
) {
  assertCompanyAccess(principal, filters.companyId);
  return store.searchContraAccounts(db, filters, position);
}

/** The normalised filters of a search body; also what its cursors are bound to. */
export function toContraAccountFilters(body: ContraAccountSearch): store.ContraAccountFilters {
  return {
    companyId: body.companyId.toLowerCase(),
    ids: lowerIds(body.ids),
    externalId: body.externalId ?? null,
    kinds: body.kinds ?? null,
    currencies: body.currencies ?? null,
    accountIds: lowerIds(body.accountIds),
  };
}

/** The currency when the kind names one (ADDITIONAL_CURRENCY_WALLET), else null; 400 otherwise. */
function checkCurrency(kind: string, currency: string | null): string | null {
  if (kind === CURRENCY_KIND && currency === null) {
    throw validationError([{ path: '/currency', message: `is required for ${CURRENCY_KIND}`, in: 'body' }]);
  }
  if (kind !== CURRENCY_KIND && currency !== null) {
    throw validationError([{ path: '/currency', message: `must be null unless kind is ${CURRENCY_KIND}`, in: 'body' }]);
  }
  return currency;
}

async function insertOrUnknownAccount(db: Queryable, row: store.NewContraAccount): Promise<ContraAccount | undefined> {
  try {
    return await store.insertContraAccount(db, row);
  } catch (error) {
    // The account was deleted between the statement's read of it and its foreign key check.
    if (isPgError(error, PG_FOREIGN_KEY_VIOLATION)) throw unknownAccount(row.companyId, row.accountId);
    throw error;
  }
}

function kindName(row: { kind: string; currency: string | null }): string {
  return row.currency === null ? row.kind : `${row.kind} in ${row.currency}`;
}

function contraAccountNotFound(id: string): ApiError {
  return new ApiError('CONTRA_ACCOUNT_NOT_FOUND', `No contra account ${id}`);
}
