import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import type { App, RouteDeps } from '../http/app.ts';
import { sendData } from '../http/json-text.ts';
import { type PageQuery, parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import { errorResponses } from '../http/schemas.ts';
import * as operations from './operations.ts';
import {
  AccountCreateSchema,
  AccountEnvelope,
  AccountIdParams,
  AccountPageSchema,
  AccountSearchQuery,
  AccountSearchSchema,
  AccountUpdateSchema,
} from './schemas.ts';
import { ACCOUNT_SORT_COLUMNS } from './store.ts';

const tags = ['Accounts'];

export function registerAccountRoutes(app: App, { db }: RouteDeps): void {
  app.post(
    '/v1-beta/accounts',
    {
      config: { scope: 'accounts:write' },
      schema: {
        operationId: 'createAccountV4',
        summary: 'Create an account',
        description:
          'Creates the account of a new record of the external system. 201 when created; 200 when an account with the same externalId and exactly these fields exists (a safe replay); 409 ACCOUNT_ALREADY_EXISTS, with existingId, when it differs.',
        tags,
        body: AccountCreateSchema,
        response: {
          200: { ...AccountEnvelope, description: 'The request matched an existing account' },
          201: { ...AccountEnvelope, description: 'Account created' },
          ...errorResponses(409),
        },
      },
    },
    async (request, reply) => {
      const { json, created } = await operations.createAccount(db, request.principal, request.body);
      return sendData(reply.status(created ? 201 : 200), json);
    },
  );

  app.get(
    '/v1-beta/accounts/:accountId',
    {
      config: { scope: 'accounts:read' },
      schema: {
        operationId: 'getAccountV4',
        summary: 'Get an account',
        tags,
        params: AccountIdParams,
        response: { 200: AccountEnvelope, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      sendData(reply, await operations.getAccountJson(db, request.principal, request.params.accountId)),
  );

  app.put(
    '/v1-beta/accounts/:accountId',
    {
      config: { scope: 'accounts:write' },
      schema: {
        operationId: 'updateAccountV4',
        summary: 'Update an account',
        description:
          'Replaces the mutable fields; an omitted optional field becomes null. Archive an account linked to accounting entries here. A taxCodeExternalId must be the code of a tax code of the company (else 400 TAX_CODE_NOT_FOUND).',
        tags,
        params: AccountIdParams,
        body: AccountUpdateSchema,
        response: { 200: AccountEnvelope, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      sendData(reply, await operations.updateAccount(db, request.principal, request.params.accountId, request.body)),
  );

  app.delete(
    '/v1-beta/accounts/:accountId',
    {
      config: { scope: 'accounts:write' },
      schema: {
        operationId: 'deleteAccountV4',
        summary: 'Delete an account',
        description: 'Only accounts not linked to accounting entries; the others answer 409 ACCOUNT_IN_USE.',
        tags,
        params: AccountIdParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => {
      await operations.deleteAccount(db, request.principal, request.params.accountId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    '/v1-beta/accounts::search',
    {
      config: { scope: 'accounts:read' },
      preValidation: splitCommaLists,
      schema: {
        operationId: 'searchAccountsV4',
        summary: 'Search accounts',
        description:
          'Filters are ANDed: ids (any of), name (case-insensitive substring), code, externalId and archived (exact). Sorted by name unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
        tags,
        querystring: AccountSearchQuery,
        body: AccountSearchSchema,
        response: { 200: AccountPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      await answerSearch(db, request, reply);
      return reply;
    },
  );
}

/** A page of the accounts a search body picks, for either version's search route. */
export async function answerSearch(
  db: Database,
  request: FastifyRequest<{ Querystring: PageQuery; Body: Parameters<typeof operations.toAccountFilters>[0] }>,
  reply: FastifyReply,
): Promise<void> {
  const filters = operations.toAccountFilters(request.body);
  const page = parsePageRequest(request, {
    resource: 'accounts',
    filters,
    defaultSort: [{ key: 'name', order: 'ASC' }],
    columns: ACCOUNT_SORT_COLUMNS,
  });
  const result = await operations.searchAccounts(db, request.principal, filters, page);
  sendPage(reply, result, page);
}
