import type { App, RouteDeps } from '../http/app.ts';
import { registerRecordRoutes } from '../http/record-routes.ts';
import * as operations from './category-operations.ts';
import { CATEGORY_SORT_COLUMNS } from './category-store.ts';
import {
  CategoryCreateSchema,
  CategoryEnvelope,
  CategoryIdParams,
  CategoryPageSchema,
  CategorySearchQuery,
  CategorySearchSchema,
  CategoryUpdateSchema,
} from './schemas.ts';

const REFERENCES =
  'groupId must be a category group of the company (else 400 UNKNOWN_BOOKKEEPING_CATEGORY_GROUP), accountId an account of the company (else 400 UNKNOWN_ACCOUNT), and taxCodeExternalId, when given, the code of a tax code of the company (else 400 TAX_CODE_NOT_FOUND).';

export function registerCategoryRoutes(app: App, deps: RouteDeps): void {
  registerRecordRoutes(app, deps, {
    base: '/v1-beta/bookkeeping-categories',
    idParam: 'categoryId',
    tags: ['Bookkeeping Categories'],
    scopes: { read: 'bookkeeping-categories:read', write: 'bookkeeping-categories:write' },
    schemas: {
      envelope: CategoryEnvelope,
      idParams: CategoryIdParams,
      create: CategoryCreateSchema,
      update: CategoryUpdateSchema,
      search: CategorySearchSchema,
      searchQuery: CategorySearchQuery,
      page: CategoryPageSchema,
    },
    create: {
      operationId: 'createBookkeepingCategory',
      summary: 'Create a category',
      description: `What an expense is filed under, and the account it is booked to. ${REFERENCES} 201 when created; with an externalId its company already has: 200 when that category has exactly these fields (a safe replay), else 409 BOOKKEEPING_CATEGORY_ALREADY_EXISTS with existingId.`,
      replayed: 'The request matched an existing category',
      created: 'Category created',
      run: operations.createCategory,
    },
    get: {
      operationId: 'getBookkeepingCategory',
      summary: 'Get a category',
      run: operations.getCategory,
    },
    update: {
      operationId: 'updateBookkeepingCategory',
      summary: 'Update a category',
      description: `Replaces the mutable fields, its group and account too; an omitted optional field becomes null. ${REFERENCES}`,
      run: operations.updateCategory,
    },
    delete: {
      operationId: 'deleteBookkeepingCategory',
      summary: 'Delete a category',
      description:
        'Always allowed: nothing references a category. Its account can then be deleted if nothing else uses it.',
      run: operations.deleteCategory,
    },
    search: {
      operationId: 'searchBookkeepingCategories',
      summary: 'Search categories',
      description:
        'Filters are ANDed: ids, groupIds and accountIds (any of each), externalId and archived (exact). Sorted by name unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
      resource: 'bookkeeping-categories',
      defaultSort: [{ key: 'name', order: 'ASC' }],
      columns: CATEGORY_SORT_COLUMNS,
      filters: operations.toCategoryFilters,
      run: operations.searchCategories,
    },
  });
}
