import type { App, RouteDeps } from '../http/app.ts';
import { parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import { errorResponses } from '../http/schemas.ts';
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

const tags = ['Bookkeeping Categories'];
const BASE = '/v1-beta/bookkeeping-categories';
const REFERENCES =
  'groupId must be a category group of the company (else 400 UNKNOWN_BOOKKEEPING_CATEGORY_GROUP), accountId an account of the company (else 400 UNKNOWN_ACCOUNT), and taxCodeExternalId, when given, the code of a tax code of the company (else 400 TAX_CODE_NOT_FOUND).';

export function registerCategoryRoutes(app: App, { db }: RouteDeps): void {
  app.post(
    BASE,
    {
      config: { scope: 'bookkeeping-categories:write' },
      schema: {
        operationId: 'createBookkeepingCategory',
        summary: 'Create a category',
        description: `What an expense is filed under, and the account it is booked to. ${REFERENCES} 201 when created; with an externalId its company already has: 200 when that category has exactly these fields (a safe replay), else 409 BOOKKEEPING_CATEGORY_ALREADY_EXISTS with existingId.`,
        tags,
        body: CategoryCreateSchema,
        response: {
          200: { ...CategoryEnvelope, description: 'The request matched an existing category' },
          201: { ...CategoryEnvelope, description: 'Category created' },
          ...errorResponses(409),
        },
      },
    },
    async (request, reply) => {
      const { record, created } = await operations.createCategory(db, request.principal, request.body);
      return reply.status(created ? 201 : 200).send({ data: record });
    },
  );

  app.get(
    `${BASE}/:categoryId`,
    {
      config: { scope: 'bookkeeping-categories:read' },
      schema: {
        operationId: 'getBookkeepingCategory',
        summary: 'Get a category',
        tags,
        params: CategoryIdParams,
        response: { 200: CategoryEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await operations.getCategory(db, request.principal, request.params.categoryId) }),
  );

  app.put(
    `${BASE}/:categoryId`,
    {
      config: { scope: 'bookkeeping-categories:write' },
      schema: {
        operationId: 'updateBookkeepingCategory',
        summary: 'Update a category',
        description: `Replaces the mutable fields, its group and account too; an omitted optional field becomes null. ${REFERENCES}`,
        tags,
        params: CategoryIdParams,
        body: CategoryUpdateSchema,
        response: { 200: CategoryEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await operations.updateCategory(db, request.principal, request.params.categoryId, request.body),
    }),
  );

  app.delete(
    `${BASE}/:categoryId`,
    {
      config: { scope: 'bookkeeping-categories:write' },
      schema: {
        operationId: 'deleteBookkeepingCategory',
        summary: 'Delete a category',
        description:
          'Always allowed: nothing references a category. Its account can then be deleted if nothing else uses it.',
        tags,
        params: CategoryIdParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await operations.deleteCategory(db, request.principal, request.params.categoryId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${BASE}::search`,
    {
      config: { scope: 'bookkeeping-categories:read' },
      preValidation: splitCommaLists,
      schema: {
        operationId: 'searchBookkeepingCategories',
        summary: 'Search categories',
        description:
          'Filters are ANDed: ids, groupIds and accountIds (any of each), externalId and archived (exact). Sorted by name unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
        tags,
        querystring: CategorySearchQuery,
        body: CategorySearchSchema,
        response: { 200: CategoryPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = operations.toCategoryFilters(request.body);
      const page = parsePageRequest(request, {
        resource: 'bookkeeping-categories',
        filters,
        defaultSort: [{ key: 'name', order: 'ASC' }],
        columns: CATEGORY_SORT_COLUMNS,
      });
      return sendPage(reply, await operations.searchCategories(db, request.principal, filters, page), page);
    },
  );
}
