import type { App, RouteDeps } from '../http/app.ts';
import { parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import { errorResponses, inUseResponse } from '../http/schemas.ts';
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

const tags = ['Bookkeeping Category Groups'];
const BASE = '/v1-beta/bookkeeping-category-groups';

export function registerGroupRoutes(app: App, { db }: RouteDeps): void {
  app.post(
    BASE,
    {
      config: { scope: 'bookkeeping-categories:write' },
      schema: {
        operationId: 'createBookkeepingCategoryGroup',
        summary: 'Create a category group',
        description:
          'A group of bookkeeping categories, of one of the reference types. 201 when created; with an externalId its company already has: 200 when that group has exactly these fields (a safe replay), else 409 BOOKKEEPING_CATEGORY_GROUP_ALREADY_EXISTS with existingId.',
        tags,
        body: GroupCreateSchema,
        response: {
          200: { ...GroupEnvelope, description: 'The request matched an existing group' },
          201: { ...GroupEnvelope, description: 'Group created' },
          ...errorResponses(409),
        },
      },
    },
    async (request, reply) => {
      const { record, created } = await operations.createGroup(db, request.principal, request.body);
      return reply.status(created ? 201 : 200).send({ data: record });
    },
  );

  app.get(
    `${BASE}/:groupId`,
    {
      config: { scope: 'bookkeeping-categories:read' },
      schema: {
        operationId: 'getBookkeepingCategoryGroup',
        summary: 'Get a category group',
        tags,
        params: GroupIdParams,
        response: { 200: GroupEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await operations.getGroup(db, request.principal, request.params.groupId) }),
  );

  app.put(
    `${BASE}/:groupId`,
    {
      config: { scope: 'bookkeeping-categories:write' },
      schema: {
        operationId: 'updateBookkeepingCategoryGroup',
        summary: 'Update a category group',
        description:
          'Replaces the mutable fields; an omitted optional field becomes null. Archiving a group leaves its categories as they are.',
        tags,
        params: GroupIdParams,
        body: GroupUpdateSchema,
        response: { 200: GroupEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await operations.updateGroup(db, request.principal, request.params.groupId, request.body),
    }),
  );

  app.delete(
    `${BASE}/:groupId`,
    {
      config: { scope: 'bookkeeping-categories:write' },
      schema: {
        operationId: 'deleteBookkeepingCategoryGroup',
        summary: 'Delete a category group',
        description:
          'Only a group without categories (archived ones count); the others answer 409 BOOKKEEPING_CATEGORY_GROUP_IN_USE naming them. Archive it instead.',
        tags,
        params: GroupIdParams,
        response: {
          204: { type: 'null', description: 'Deleted' },
          ...errorResponses(404),
          409: inUseResponse('The group has categories'),
        },
      },
    },
    async (request, reply) => {
      await operations.deleteGroup(db, request.principal, request.params.groupId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${BASE}::search`,
    {
      config: { scope: 'bookkeeping-categories:read' },
      preValidation: splitCommaLists,
      schema: {
        operationId: 'searchBookkeepingCategoryGroups',
        summary: 'Search category groups',
        description:
          'Filters are ANDed: ids and types (any of), externalId and archived (exact). Sorted by name unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
        tags,
        querystring: GroupSearchQuery,
        body: GroupSearchSchema,
        response: { 200: GroupPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = operations.toGroupFilters(request.body);
      const page = parsePageRequest(request, {
        resource: 'bookkeeping-category-groups',
        filters,
        defaultSort: [{ key: 'name', order: 'ASC' }],
        columns: GROUP_SORT_COLUMNS,
      });
      return sendPage(reply, await operations.searchGroups(db, request.principal, filters, page), page);
    },
  );
}
