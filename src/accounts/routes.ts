// The account operations both versions serve over the same operations and store: /v1-beta/accounts
// here, /v1/chart-of-accounts in v1-routes.ts (docs/decisions/chart-of-accounts-v1.md). A version
// says its path, operation ids and what its create and search bodies take.

import type { TSchema } from 'typebox';
import type { App, RouteDeps } from '../http/app.ts';
import { answerWithoutBody } from '../http/content-types.ts';
import { sendData } from '../http/json-text.ts';
import { type PageQuery, parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import { errorResponses, inUseResponse } from '../http/schemas.ts';
import * as operations from './operations.ts';
import {
  type AccountCreate,
  AccountCreateSchema,
  AccountEnvelope,
  AccountIdParams,
  AccountPageSchema,
  type AccountSearch,
  AccountSearchQuery,
  AccountSearchSchema,
  AccountUpdateSchema,
} from './schemas.ts';
import { ACCOUNT_SORT_COLUMNS } from './store.ts';

export interface AccountApiVersion {
  base: string;
  tags: string[];
  /** Ends each operationId: createAccount<suffix>, getAccount<suffix>, … */
  operationSuffix: string;
  create: { body: TSchema; description: string };
  search: { body: TSchema; description: string };
}

const V1_BETA: AccountApiVersion = {
  base: '/v1-beta/accounts',
  tags: ['Accounts'],
  operationSuffix: 'V4',
  create: {
    body: AccountCreateSchema,
    description:
      'Creates the account of a new record of the external system. 201 when created; 200 when an account with the same externalId and exactly these fields exists (a safe replay); 409 ACCOUNT_ALREADY_EXISTS, with existingId, when it differs.',
  },
  search: {
    body: AccountSearchSchema,
    description:
      'Filters are ANDed: ids (any of), name (case-insensitive substring), code, externalId and archived (exact); excludeIfAssignedToCategory and excludeIfAssignedToContraAccount leave out the accounts bookkeeping categories and contra accounts use. Sorted by name unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
  },
};

export function registerAccountRoutes(app: App, deps: RouteDeps): void {
  registerAccountOperations(app, deps, V1_BETA);
}

/** Create, get, update, delete and search of accounts at `version.base`. */
export function registerAccountOperations(app: App, { db }: RouteDeps, version: AccountApiVersion): void {
  const { base, tags, operationSuffix: suffix } = version;
  app.post<{ Body: AccountCreate }>(
    base,
    {
      config: { scope: 'accounts:write' },
      schema: {
        operationId: `createAccount${suffix}`,
        summary: 'Create an account',
        description: version.create.description,
        tags,
        body: version.create.body,
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
    `${base}/:accountId`,
    {
      config: { scope: 'accounts:read' },
      schema: {
        operationId: `getAccount${suffix}`,
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
    `${base}/:accountId`,
    {
      config: { scope: 'accounts:write' },
      schema: {
        operationId: `updateAccount${suffix}`,
        summary: 'Update an account',
        description:
          'Replaces the mutable fields; an omitted optional field becomes null. Archive an account in use here. A taxCodeExternalId must be the code of a tax code of the company (else 400 TAX_CODE_NOT_FOUND).',
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
    `${base}/:accountId`,
    {
      config: { scope: 'accounts:write' },
      schema: {
        operationId: `deleteAccount${suffix}`,
        summary: 'Delete an account',
        description:
          'Only accounts that no accounting entry, bookkeeping category or contra account references; the others answer 409 ACCOUNT_IN_USE naming what uses them. Archive those instead.',
        tags,
        params: AccountIdParams,
        response: {
          204: { type: 'null', description: 'Deleted' },
          ...errorResponses(404),
          409: inUseResponse('The account is in use'),
        },
      },
    },
    async (request, reply) => {
      await operations.deleteAccount(db, request.principal, request.params.accountId);
      return answerWithoutBody(reply, 204);
    },
  );

  app.post<{ Querystring: PageQuery; Body: AccountSearch & { codes?: (string | null)[] | null } }>(
    `${base}::search`,
    {
      config: { scope: 'accounts:read' },
      preValidation: splitCommaLists,
      schema: {
        operationId: `searchAccounts${suffix}`,
        summary: 'Search accounts',
        description: version.search.description,
        tags,
        querystring: AccountSearchQuery,
        body: version.search.body,
        response: { 200: AccountPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = operations.toAccountFilters(request.body);
      const page = parsePageRequest(request, {
        resource: 'accounts',
        filters,
        defaultSort: [{ key: 'name', order: 'ASC' }],
        columns: ACCOUNT_SORT_COLUMNS,
      });
      const result = await operations.searchAccounts(db, request.principal, filters, page);
      return sendPage(reply, result, page);
    },
  );
}
