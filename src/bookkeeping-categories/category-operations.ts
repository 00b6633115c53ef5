// What the bookkeeping categories API does, one function per operation
// (docs/decisions/bookkeeping.md). Routes parse and shape; these decide.
import { checkMetadata, checkTaxCodeExternalId } from '../accounts/operations.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { PagePosition } from '../db/keyset-page.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { ApiError } from '../http/problem.ts';
import { lowerIds } from '../http/schemas.ts';
import { recordCreation, recordDeletions, recordUpdate } from '../webhooks/record-change.ts';
import * as store from './category-store.ts';
import { CATEGORIES } from './category-store.ts';
import { createOrReplay, isReplayOf } from './create-or-replay.ts';
import { deleteRecord, findRecord, findRecordByExternalId, insertRecord, updateRecord } from './record-store.ts';
import type { Category, CategoryCreate, CategorySearch, CategoryUpdate } from './schemas.ts';

/**
 * 201 for a new category, with its `v1.bookkeeping-category.created` event in the same transaction;
 * 200 when its externalId names an identical category (a replay, no event); else 409. The group and the account must be the company's (400 naming the field otherwise, another
 * company's answered as a missing one), and so must the tax code named by taxCodeExternalId.
 */
export async function createCategory(
  db: Database,
  principal: Principal,
  input: CategoryCreate,
): Promise<{ record: Category; created: boolean }> {
  assertCompanyAccess(principal, input.companyId);
  const companyId = input.companyId.toLowerCase();
  const externalId = input.externalId ?? null;
  const fields = categoryFields(input);
  const requested = { externalId, ...fields };
  return db.transaction(async (tx) => {
    // A replay answers the stored category before its references are checked again: the tax code
    // it names may have been deleted since (no foreign key holds a code), and a retry must not fail
    // for what was valid when it was created.
    const stored =
      externalId === null ? undefined : await findRecordByExternalId<Category>(tx, CATEGORIES, companyId, externalId);
    if (stored && isReplayOf(stored, requested)) return { record: stored, created: false };
    await checkReferences(tx, companyId, fields);
    const outcome = await createOrReplay({
      insert: () =>
        insertRecord<Category>(tx, CATEGORIES, {
          company_id: companyId,
          external_id: externalId,
          ...columnsOf(fields),
        }),
      findTaken: async () =>
        externalId === null ? undefined : findRecordByExternalId<Category>(tx, CATEGORIES, companyId, externalId),
      requested,
      conflict: (existingId) =>
        new ApiError(
          'BOOKKEEPING_CATEGORY_ALREADY_EXISTS',
          `Company ${companyId} already has a category with externalId ${externalId}`,
          existingId ? { existingId } : {},
        ),
    });
    if (outcome.created) await recordCreation(tx, 'v1.bookkeeping-category.created', outcome.record);
    return outcome;
  });
}

export async function getCategory(db: Database, principal: Principal, id: string): Promise<Category> {
  const category = await findRecord<Category>(db, CATEGORIES, id, [...principal.companies]);
  if (!category) throw categoryNotFound(id);
  return category;
}

/**
 * A full replacement of the mutable fields (group and account too): an omitted optional field
 * becomes null. Records `v1.bookkeeping-category.updated` unless nothing but updatedAt changed.
 */
export async function updateCategory(
  db: Database,
  principal: Principal,
  id: string,
  input: CategoryUpdate,
): Promise<Category> {
  const fields = categoryFields(input);
  return db.transaction(async (tx) => {
    const current = await findRecord<Category>(tx, CATEGORIES, id, [...principal.companies], { forUpdate: true });
    if (!current) throw categoryNotFound(id);
    await checkReferences(tx, current.companyId, fields);
    const updated = await updateRecord<Category>(tx, CATEGORIES, id, columnsOf(fields));
    await recordUpdate(tx, 'v1.bookkeeping-category.updated', current, updated);
    return updated;
  });
}

/** Nothing references a category: deleting one is always allowed. Its event carries its last state. */
export async function deleteCategory(db: Database, principal: Principal, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const deleted = await deleteRecord<Category>(tx, CATEGORIES, id, [...principal.companies]);
    if (!deleted) throw categoryNotFound(id);
    await recordDeletions(tx, 'v1.bookkeeping-category.deleted', [deleted]);
  });
}

export async function searchCategories(
  db: Database,
  principal: Principal,
  filters: store.CategoryFilters,
  position: PagePosition,
) {
  assertCompanyAccess(principal, filters.companyId);
  return store.searchCategories(db, filters, position);
}

/** The normalised filters of a search body; also what its cursors are bound to. */
export function toCategoryFilters(body: CategorySearch): store.CategoryFilters {
  return {
    companyId: body.companyId.toLowerCase(),
    ids: lowerIds(body.ids),
    groupIds: lowerIds(body.groupIds),
    accountIds: lowerIds(body.accountIds),
    externalId: body.externalId ?? null,
    archived: body.archived ?? null,
  };
}

type CategoryFields = ReturnType<typeof categoryFields>;

function categoryFields(input: CategoryUpdate) {
  return {
    name: input.name,
    groupId: input.groupId.toLowerCase(),
    accountId: input.accountId.toLowerCase(),
    taxCodeExternalId: input.taxCodeExternalId ?? null,
    archived: input.archived,
    metadata: checkMetadata(input.metadata ?? null),
  };
}

function columnsOf(fields: CategoryFields) {
  return {
    name: fields.name,
    group_id: fields.groupId,
    account_id: fields.accountId,
    tax_code_external_id: fields.taxCodeExternalId,
    archived: fields.archived,
    metadata: fields.metadata,
  };
}

/** The group, the account and the tax code must be the company's; the first that is not is a 400 naming its field. */
async function checkReferences(tx: Queryable, companyId: string, fields: CategoryFields): Promise<void> {
  const found = await store.lockReferences(tx, companyId, fields.groupId, fields.accountId);
  if (!found.group) {
    throw new ApiError(
      'UNKNOWN_BOOKKEEPING_CATEGORY_GROUP',
      `Company ${companyId} has no bookkeeping category group ${fields.groupId}`,
      { errors: [{ path: '/groupId', message: 'must be a category group of the company', in: 'body' }] },
    );
  }
  if (!found.account) {
    throw new ApiError('UNKNOWN_ACCOUNT', `Company ${companyId} has no account ${fields.accountId}`, {
      errors: [{ path: '/accountId', message: 'must be an account of the company', in: 'body' }],
    });
  }
  await checkTaxCodeExternalId(tx, companyId, fields.taxCodeExternalId);
}

function categoryNotFound(id: string): ApiError {
  return new ApiError('BOOKKEEPING_CATEGORY_NOT_FOUND', `No bookkeeping category ${id}`);
}
