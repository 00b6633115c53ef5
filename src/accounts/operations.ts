// What the accounts API does, one function per operation (docs/decisions/api-conventions.md).
// Routes parse and shape; these decide.
import { isDeepStrictEqual } from 'node:util';
import type { Principal } from '../auth/principal.ts';
import type { Database, Queryable } from '../db/database.ts';
import { deleteUnlessReferenced } from '../db/delete-unless-referenced.ts';
import type { PagePosition } from '../db/keyset-page.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { ApiError, validationError } from '../http/problem.ts';
import { lowerIds } from '../http/schemas.ts';
import { taxCodeCodeExists } from '../tax-codes/store.ts';
import { changeOf } from '../webhooks/event-payload.ts';
import { recordEvent } from '../webhooks/record-event.ts';
import { loadAccount } from './account-loader.ts';
import { describeAccountUsers, findAccountUsers } from './account-users.ts';
import type { Account, AccountCreate, AccountSearch, AccountUpdate } from './schemas.ts';
import * as store from './store.ts';

const METADATA_MAX_BYTES = 64 * 1024;

export interface CreateResult {
  /** The account as JSON text, as the database keeps it (migration 0014). */
  json: string;
  /** False when the request replayed an identical, already stored account. */
  created: boolean;
}

/**
 * 201 for a new account, whose v1.account.created its insert records; 200 when an account with the
 * same (companyId, externalId) has exactly the requested fields (a safe replay, no event); else 409
 * with the stored account's id. The unique index decides concurrent creates, so there is never a
 * second row.
 */
export async function createAccount(db: Database, principal: Principal, input: AccountCreate): Promise<CreateResult> {
  assertCompanyAccess(principal, input.companyId);
  const account = {
    companyId: input.companyId.toLowerCase(),
    externalId: input.externalId,
    name: input.name,
    archived: input.archived,
    code: input.code ?? null,
    taxCodeExternalId: input.taxCodeExternalId ?? null,
    metadata: checkMetadata(input.metadata ?? null),
    accountingSystem: principal.accountingSystem ?? null,
  };
  // Two rounds: the conflicting row may be deleted between the insert and the read.
  for (let round = 0; round < 2; round++) {
    const inserted = await store.insertAccount(db, account);
    if (inserted) return { json: inserted.json, created: true };
    const existing = await store.findAccountByExternalId(db, account.companyId, account.externalId);
    if (!existing) continue;
    if (sameMutableFields(existing, account)) return { json: existing.json, created: false };
    throw new ApiError(
      'ACCOUNT_ALREADY_EXISTS',
      `Account ${existing.id} already has externalId ${account.externalId}`,
      {
        existingId: existing.id,
      },
    );
  }
  throw new ApiError(
    'ACCOUNT_ALREADY_EXISTS',
    `An account with externalId ${account.externalId} is being changed; retry`,
  );
}

/** The account as JSON text, as the database keeps it (migration 0014). */
export async function getAccountJson(db: Database, principal: Principal, id: string): Promise<string> {
  const account = await loadAccount(db, id);
  // Another company's account answers exactly as a missing one.
  if (!account || !principal.companies.has(account.companyId)) throw accountNotFound(id);
  return account.json;
}

/**
 * A full replacement of the mutable fields, answered as JSON text: an omitted optional field becomes
 * null. Records v1.account.updated with the fields it changed; none when it changed nothing.
 */
export async function updateAccount(
  db: Database,
  principal: Principal,
  id: string,
  input: AccountUpdate,
): Promise<string> {
  const changes = {
    name: input.name,
    archived: input.archived,
    code: input.code ?? null,
    taxCodeExternalId: input.taxCodeExternalId ?? null,
    metadata: checkMetadata(input.metadata ?? null),
  };
  return db.transaction(async (tx) => {
    const current = await store.findAccount(tx, id, [...principal.companies], { forUpdate: true });
    if (!current) throw accountNotFound(id);
    await checkTaxCodeExternalId(tx, current.companyId, changes.taxCodeExternalId);
    const updated = await store.updateAccount(tx, id, changes);
    const [before, after] = [JSON.parse(current.json), JSON.parse(updated.json)];
    const changed = changeOf(before, after);
    if (changed) {
      await recordEvent(tx, {
        eventType: 'v1.account.updated',
        companyId: current.companyId,
        data: after,
        previousAttributes: changed,
      });
    }
    return updated.json;
  });
}

/** 400 TAX_CODE_NOT_FOUND naming /taxCodeExternalId unless it is null or the code of a tax code of the company. */
export async function checkTaxCodeExternalId(db: Queryable, companyId: string, code: string | null): Promise<void> {
  if (code !== null && !(await taxCodeCodeExists(db, companyId, code))) {
    throw new ApiError('TAX_CODE_NOT_FOUND', `Company ${companyId} has no tax code with code ${code}`, {
      errors: [{ path: '/taxCodeExternalId', message: 'must be the code of an existing tax code', in: 'body' }],
    });
  }
}

/**
 * Only accounts nothing references can be deleted (accounting entries, bookkeeping categories,
 * contra accounts);
 * archive the others. The 409 names what uses the account.
 */
export async function deleteAccount(db: Database, principal: Principal, id: string): Promise<void> {
  const outcome = await deleteUnlessReferenced(
    () => deleteRecordingEvent(db, id, [...principal.companies]),
    () => findAccountUsers(db, id),
  );
  if (outcome.referencedBy) {
    throw new ApiError(
      'ACCOUNT_IN_USE',
      `Account ${id} is used by ${describeAccountUsers(outcome.referencedBy)}; archive it with PUT instead`,
      { usedBy: outcome.referencedBy },
    );
  }
  if (!outcome.deleted) throw accountNotFound(id);
}

/** Deletes the account with its v1.account.deleted, or neither: false when there is no such account. */
async function deleteRecordingEvent(db: Database, id: string, companies: string[]): Promise<boolean> {
  return db.transaction(async (tx) => {
    const deleted = await store.deleteAccount(tx, id, companies);
    if (!deleted) return false;
    const data = JSON.parse(deleted.json);
    await recordEvent(tx, { eventType: 'v1.account.deleted', companyId: deleted.companyId, data });
    return true;
  });
}

export async function searchAccounts(
  db: Database,
  principal: Principal,
  filters: store.AccountFilters,
  position: PagePosition,
) {
  assertCompanyAccess(principal, filters.companyId);
  return store.searchAccounts(db, filters, position);
}

/** The normalised filters of a search body; also what its cursors are bound to. */
export function toAccountFilters(body: AccountSearch & { codes?: (string | null)[] | null }): store.AccountFilters {
  return {
    companyId: body.companyId.toLowerCase(),
    ids: lowerIds(body.ids),
    name: body.name ?? null,
    code: body.code ?? null,
    codes: body.codes ?? null,
    externalId: body.externalId ?? null,
    archived: body.archived ?? null,
    excludeIfAssignedToContraAccount: body.excludeIfAssignedToContraAccount ?? false,
    excludeIfAssignedToCategory: body.excludeIfAssignedToCategory ?? false,
  };
}

/** The metadata as sent, or 400 naming /metadata when it cannot be stored. */
export function checkMetadata(metadata: Record<string, unknown> | null): Record<string, unknown> | null {
  const problem = metadataProblem(metadata);
  if (problem) throw validationError([{ path: '/metadata', message: problem, in: 'body' }]);
  return metadata;
}

/** Why the metadata cannot be stored, or undefined when it can. */
export function metadataProblem(metadata: Record<string, unknown> | null): string | undefined {
  if (metadata === null) return undefined;
  let nul = false;
  const json = JSON.stringify(metadata, (key, value) => {
    nul ||= key.includes('\0') || (typeof value === 'string' && value.includes('\0'));
    return value;
  });
  if (Buffer.byteLength(json) > METADATA_MAX_BYTES) return 'must be at most 64 KiB as JSON';
  // jsonb cannot hold the NUL character.
  if (nul) return 'must not contain the NUL character';
  return undefined;
}

export function sameMutableFields(stored: Account, requested: Omit<Account, 'id'>): boolean {
  return (
    stored.name === requested.name &&
    stored.archived === requested.archived &&
    stored.code === requested.code &&
    stored.taxCodeExternalId === requested.taxCodeExternalId &&
    isDeepStrictEqual(stored.metadata, requested.metadata)
  );
}

/**
 * 400 UNKNOWN_ACCOUNT for a reference to an account the company does not have (another company's
 * answers exactly as a missing one), naming the field at `path`.
 */
export function unknownAccount(companyId: string, accountId: string, path = '/accountId'): ApiError {
  return new ApiError('UNKNOWN_ACCOUNT', `Company ${companyId} has no account ${accountId}`, {
    errors: [{ path, message: 'must be an account of the company', in: 'body' }],
  });
}

function accountNotFound(id: string): ApiError {
  return new ApiError('ACCOUNT_NOT_FOUND', `No account ${id}`);
}
