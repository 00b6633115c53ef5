// Batch create (POST /v1/chart-of-accounts/batch): each item validated and created on its own, in
// a few statements for the whole batch (docs/decisions/chart-of-accounts-v1.md).
import type { ErrorObject } from 'ajv';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/database.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { validationError } from '../http/problem.ts';
import { compileBodyValidator } from '../http/validation.ts';
import { metadataProblem, sameMutableFields } from './operations.ts';
import * as store from './store.ts';
import {
  type AccountBatchCreate,
  type AccountBatchItem,
  AccountBatchItemSchema,
  BATCH_FAILURE_REASONS,
  type BatchFailureReason,
} from './v1-schemas.ts';

export interface BatchFailure {
  reasons: BatchFailureReason[];
  request: unknown;
}

export interface BatchResult {
  /** The JSON text of each account created or matched, in item order. */
  created: string[];
  failed: BatchFailure[];
}

type Candidate = Omit<store.NewAccount, 'companyId'>;

const validateItem = compileBodyValidator<AccountBatchItem>(AccountBatchItemSchema);

/**
 * Creates the valid items of a batch for one company. The first valid item of an externalId is
 * the one created; a later item of that externalId is reported with it when identical and fails
 * EXTERNAL_ID_ALREADY_EXISTS when not. An item identical to a stored account is answered in
 * `created` with that account (a replay), one that differs fails EXTERNAL_ID_ALREADY_EXISTS.
 */
export async function createAccountsBatch(
  db: Database,
  principal: Principal,
  batch: AccountBatchCreate,
): Promise<BatchResult> {
  assertCompanyAccess(principal, batch.companyId);
  const companyId = batch.companyId.toLowerCase();
  assertOneCompany(principal, companyId, batch.items);

  const judged = batch.items.map((item) => judgeItem(item, principal.accountingSystem ?? null));
  // The first valid item of each externalId is the one the batch stores.
  const chosen = new Map<string, Candidate>();
  for (const verdict of judged) {
    if ('account' in verdict && !chosen.has(verdict.account.externalId)) {
      chosen.set(verdict.account.externalId, verdict.account);
    }
  }
  const { stored, inserted } = await storeCandidates(db, companyId, [...chosen.values()]);
  const taken = (externalId: string) => inserted.has(externalId) || stored.has(externalId);
  // Invalid items' externalIds may be taken too: say so beside their other reasons.
  const invalidIds = judged.flatMap((verdict) =>
    'reasons' in verdict && verdict.externalId ? [verdict.externalId] : [],
  );
  const unknown = invalidIds.filter((id) => !taken(id));
  if (unknown.length > 0) {
    for (const row of await store.findAccountsByExternalIds(db, companyId, unknown)) stored.set(row.externalId, row);
  }

  const result: BatchResult = { created: [], failed: [] };
  const reported = new Set<string>();
  batch.items.forEach((item, i) => {
    const verdict = judged[i] as Verdict;
    if ('reasons' in verdict) {
      const reasons: BatchFailureReason[] =
        verdict.externalId !== undefined && taken(verdict.externalId)
          ? ['EXTERNAL_ID_ALREADY_EXISTS', ...verdict.reasons]
          : verdict.reasons;
      result.failed.push({ reasons, request: item });
      return;
    }
    const { account } = verdict;
    const winner = chosen.get(account.externalId);
    // A row this batch inserted holds its winner's fields: only a stored one needs comparing.
    const existing = stored.get(account.externalId);
    const json =
      inserted.get(account.externalId) ??
      (existing && sameMutableFields(existing, { ...account, companyId }) ? existing.json : undefined);
    if (json !== undefined && (winner === account || sameCandidate(winner, account))) {
      if (!reported.has(account.externalId)) result.created.push(json);
      reported.add(account.externalId);
    } else {
      const reason = taken(account.externalId) ? 'EXTERNAL_ID_ALREADY_EXISTS' : 'OTHER';
      result.failed.push({ reasons: [reason], request: item });
    }
  });
  return result;
}

/**
 * Inserts the candidates, and reads the stored accounts of those whose externalId was taken:
 * `inserted` holds the JSON of each account this batch inserted, `stored` each other account found
 * by a candidate's externalId. Two rounds: a conflicting account may be deleted between the insert
 * and the read.
 */
async function storeCandidates(
  db: Database,
  companyId: string,
  candidates: Candidate[],
): Promise<{ stored: Map<string, store.StoredAccount>; inserted: Map<string, string> }> {
  const stored = new Map<string, store.StoredAccount>();
  const inserted = new Map<string, string>();
  let pending = candidates;
  for (let round = 0; round < 2 && pending.length > 0; round++) {
    const rows = await insertRecordingEvents(db, companyId, pending);
    for (const row of rows) inserted.set(row.externalId, row.json);
    const taken = pending.filter((candidate) => !inserted.has(candidate.externalId));
    if (taken.length === 0) break;
    const takenIds = taken.map((candidate) => candidate.externalId);
    for (const row of await store.findAccountsByExternalIds(db, companyId, takenIds)) stored.set(row.externalId, row);
    pending = taken.filter((candidate) => !stored.has(candidate.externalId));
  }
  return { stored, inserted };
}

/**
 * Inserts the candidates with one v1.account.created per account inserted, in the candidates' (item)
 * order, in a transaction of its own, so that a deadlock with a concurrent batch is retried.
 */
async function insertRecordingEvents(
  db: Database,
  companyId: string,
  candidates: Candidate[],
): Promise<store.InsertedAccount[]> {
  return db.transaction((tx) => store.insertAccounts(tx, companyId, candidates));
}

type Verdict = { account: Candidate } | { reasons: BatchFailureReason[]; externalId: string | undefined };

/** The account an item asks for, or why it cannot be created. */
function judgeItem(item: unknown, accountingSystem: string | null): Verdict {
  const valid = validateItem(item);
  const reasons = new Set(valid ? [] : (validateItem.errors ?? []).map(reasonOf));
  // The reference's schema lets name be empty, and its batch answers NAME_EMPTY for it.
  if ((item as { name?: unknown } | null)?.name === '') reasons.add('NAME_EMPTY');
  if (valid && metadataProblem(item.metadata ?? null)) reasons.add('OTHER');
  if (!valid || reasons.size > 0) {
    return {
      reasons: BATCH_FAILURE_REASONS.filter((reason) => reasons.has(reason)),
      externalId: usableExternalId(item),
    };
  }
  return {
    account: {
      externalId: item.externalId,
      name: item.name,
      archived: item.archived,
      code: item.code ?? null,
      taxCodeExternalId: item.taxCodeExternalId ?? null,
      metadata: item.metadata ?? null,
      accountingSystem,
    },
  };
}

/** The item's externalId when it could name a stored account. */
function usableExternalId(item: unknown): string | undefined {
  const externalId = (item as { externalId?: unknown } | null)?.externalId;
  return typeof externalId === 'string' && externalId.length > 0 && externalId.length <= 255 ? externalId : undefined;
}

function reasonOf(error: ErrorObject): BatchFailureReason {
  const field =
    error.keyword === 'required'
      ? (error.params as { missingProperty: string }).missingProperty
      : error.instancePath.slice(1);
  const tooLong = error.keyword === 'maxLength';
  const empty = error.keyword === 'minLength' || error.keyword === 'required';
  if (field === 'externalId' && tooLong) return 'EXTERNAL_ID_TOO_LONG';
  if (field === 'externalId' && empty) return 'EXTERNAL_ID_EMPTY';
  if (field === 'name' && tooLong) return 'NAME_TOO_LONG';
  if (field === 'name' && empty) return 'NAME_EMPTY';
  if (field === 'code' && tooLong) return 'CODE_TOO_LONG';
  return 'OTHER';
}

/** An item may repeat the batch's companyId; naming another company refuses the whole batch. */
function assertOneCompany(principal: Principal, companyId: string, items: readonly unknown[]): void {
  items.forEach((item, i) => {
    const named = (item as { companyId?: unknown } | null)?.companyId;
    if (named === undefined || (typeof named === 'string' && named.toLowerCase() === companyId)) return;
    if (typeof named === 'string') assertCompanyAccess(principal, named);
    throw validationError([
      { path: `/items/${i}/companyId`, message: 'must be the companyId of the batch, or absent', in: 'body' },
    ]);
  });
}

function sameCandidate(a: Candidate | undefined, b: Candidate): boolean {
  return a !== undefined && sameMutableFields({ ...a, companyId: '', id: '' }, { ...b, companyId: '' });
}
