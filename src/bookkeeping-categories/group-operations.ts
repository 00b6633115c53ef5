// What the bookkeeping category groups API does, one function per operation
// (docs/decisions/bookkeeping.md). Routes parse and shape; these decide.
import { checkMetadata } from '../accounts/operations.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/database.ts';
import { deleteUnlessReferenced } from '../db/delete-unless-referenced.ts';
import type { PagePosition } from '../db/keyset-page.ts';
import { assertCompanyAccess } from '../http/authenticate.ts';
import { ApiError } from '../http/problem.ts';
import { lowerIds } from '../http/schemas.ts';
import { recordCreation, recordDeletions, recordUpdate } from '../webhooks/record-change.ts';
import { createOrReplay } from './create-or-replay.ts';
import * as store from './group-store.ts';
import { GROUPS } from './group-store.ts';
import { deleteRecord, findRecord, findRecordByExternalId, insertRecord, updateRecord } from './record-store.ts';
import type { Group, GroupCreate, GroupSearch, GroupUpdate } from './schemas.ts';

/** How many of a group's categories the 409 of its delete names. */
const NAMED_USERS = 10;

/**
 * 201 for a new group, with its `v1.bookkeeping-category-group.created` event in the same
 * transaction; 200 when its externalId names an identical group (a replay, no event); else 409.
 */
export async function createGroup(
  db: Database,
  principal: Principal,
  input: GroupCreate,
): Promise<{ record: Group; created: boolean }> {
  assertCompanyAccess(principal, input.companyId);
  const companyId = input.companyId.toLowerCase();
  const externalId = input.externalId ?? null;
  const fields = groupFields(input);
  return db.transaction(async (tx) => {
    const outcome = await createOrReplay({
      insert: () => insertRecord<Group>(tx, GROUPS, { company_id: companyId, external_id: externalId, ...fields }),
      findTaken: async () =>
        externalId === null ? undefined : findRecordByExternalId<Group>(tx, GROUPS, companyId, externalId),
      requested: { externalId, ...fields },
      conflict: (existingId) =>
        new ApiError(
          'BOOKKEEPING_CATEGORY_GROUP_ALREADY_EXISTS',
          `Company ${companyId} already has a category group with externalId ${externalId}`,
          existingId ? { existingId } : {},
        ),
    });
    if (outcome.created) await recordCreation(tx, 'v1.bookkeeping-category-group.created', outcome.record);
    return outcome;
  });
}

export async function getGroup(db: Database, principal: Principal, id: string): Promise<Group> {
  const group = await findRecord<Group>(db, GROUPS, id, [...principal.companies]);
  if (!group) throw groupNotFound(id);
  return group;
}

/**
 * A full replacement of the mutable fields: an omitted optional field becomes null. Records
 * `v1.bookkeeping-category-group.updated` unless nothing but updatedAt changed.
 */
export async function updateGroup(db: Database, principal: Principal, id: string, input: GroupUpdate): Promise<Group> {
  const fields = groupFields(input);
  return db.transaction(async (tx) => {
    const current = await findRecord<Group>(tx, GROUPS, id, [...principal.companies], { forUpdate: true });
    if (!current) throw groupNotFound(id);
    const updated = await updateRecord<Group>(tx, GROUPS, id, fields);
    await recordUpdate(tx, 'v1.bookkeeping-category-group.updated', current, updated);
    return updated;
  });
}

/**
 * Only a group without categories (archived ones count) can be deleted; archive the others. A
 * refused delete rolls back before its event is written, so only a deleted group has one.
 */
export async function deleteGroup(db: Database, principal: Principal, id: string): Promise<void> {
  const outcome = await deleteUnlessReferenced(
    () =>
      db.transaction(async (tx) => {
        const deleted = await deleteRecord<Group>(tx, GROUPS, id, [...principal.companies]);
        if (deleted) await recordDeletions(tx, 'v1.bookkeeping-category-group.deleted', [deleted]);
        return deleted !== undefined;
      }),
    () => store.findGroupCategoryIds(db, id, NAMED_USERS),
  );
  if (outcome.referencedBy) {
    const ids = outcome.referencedBy;
    throw new ApiError(
      'BOOKKEEPING_CATEGORY_GROUP_IN_USE',
      `Category group ${id} has categories (${ids.join(', ')}${ids.length === NAMED_USERS ? ', …' : ''}); move or delete them, or archive the group`,
      { usedBy: [{ resource: 'bookkeeping-categories', ids }] },
    );
  }
  if (!outcome.deleted) throw groupNotFound(id);
}

export async function searchGroups(
  db: Database,
  principal: Principal,
  filters: store.GroupFilters,
  position: PagePosition,
) {
  assertCompanyAccess(principal, filters.companyId);
  return store.searchGroups(db, filters, position);
}

/** The normalised filters of a search body; also what its cursors are bound to. */
export function toGroupFilters(body: GroupSearch): store.GroupFilters {
  return {
    companyId: body.companyId.toLowerCase(),
    ids: lowerIds(body.ids),
    types: body.types ?? null,
    externalId: body.externalId ?? null,
    archived: body.archived ?? null,
  };
}

function groupFields(input: GroupUpdate) {
  return {
    name: input.name,
    type: input.type,
    archived: input.archived,
    metadata: checkMetadata(input.metadata ?? null),
  };
}

export function groupNotFound(id: string): ApiError {
  return new ApiError('BOOKKEEPING_CATEGORY_GROUP_NOT_FOUND', `No bookkeeping category group ${id}`);
}
