import type { App, RouteDeps } from '../http/app.ts';
import { registerRecordRoutes } from '../http/record-routes.ts';
import * as operations from './group-operations.ts';
import { GROUP_SORT_COLUMNS } from './group-store.ts';
import {
  GroupCreateSchema,
  GroupEnvelope,
  GroupIdParams,
  GroupPageSchema,
  GroupSearchQuery,
  GroupSearchSchema,
  GroupUpdateSchema,
} from './schemas.ts';

export function registerGroupRoutes(app: App, deps: RouteDeps): void {
  registerRecordRoutes(app, deps, {
    base: '/v1-beta/bookkeeping-category-groups',
    idParam: 'groupId',
    tags: ['Bookkeeping Category Groups'],
    scopes: { read: 'bookkeeping-categories:read', write: 'bookkeeping-categories:write' },
    schemas: {
      envelope: GroupEnvelope,
      idParams: GroupIdParams,
      create: GroupCreateSchema,
      update: GroupUpdateSchema,
      search: GroupSearchSchema,
      searchQuery: GroupSearchQuery,
      page: GroupPageSchema,
    },
    create: {
      operationId: 'createBookkeepingCategoryGroup',
      summary: 'Create a category group',
      description:
        'A group of bookkeeping categories, of one of the reference types. 201 when created; with an externalId its company already has: 200 when that group has exactly these fields (a safe replay), else 409 BOOKKEEPING_CATEGORY_GROUP_ALREADY_EXISTS with existingId.',
      replayed: 'The request matched an existing group',
      created: 'Group created',
      run: operations.createGroup,
    },
    get: {
      operationId: 'getBookkeepingCategoryGroup',
      summary: 'Get a category group',
      run: operations.getGroup,
    },
    update: {
      operationId: 'updateBookkeepingCategoryGroup',
      summary: 'Update a category group',
      description:
        'Replaces the mutable fields; an omitted optional field becomes null. Archiving a group leaves its categories as they are.',
      run: operations.updateGroup,
    },
    delete: {
      operationId: 'deleteBookkeepingCategoryGroup',
      summary: 'Delete a category group',
      description:
        'Only a group without categories (archived ones count); the others answer 409 BOOKKEEPING_CATEGORY_GROUP_IN_USE naming them. Archive it instead.',
      inUse: 'The group has categories',
      run: operations.deleteGroup,
    },
    search: {
      operationId: 'searchBookkeepingCategoryGroups',
      summary: 'Search category groups',
      description:
        'Filters are ANDed: ids and types (any of), externalId and archived (exact). Sorted by name unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
      resource: 'bookkeeping-category-groups',
      defaultSort: [{ key: 'name', order: 'ASC' }],
      columns: GROUP_SORT_COLUMNS,
      filters: operations.toGroupFilters,
      run: operations.searchGroups,
    },
  });
}
