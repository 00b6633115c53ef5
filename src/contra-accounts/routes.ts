import type { App, RouteDeps } from '../http/app.ts';
import { parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import { errorResponses } from '../http/schemas.ts';
import * as operations from './operations.ts';
import {
  ContraAccountCreateSchema,
  ContraAccountEnvelope,
  ContraAccountIdParams,
  ContraAccountPageSchema,
  ContraAccountSearchQuery,
  ContraAccountSearchSchema,
  ContraAccountUpdateSchema,
} from './schemas.ts';
import { CONTRA_ACCOUNT_SORT_COLUMNS } from './store.ts';

const tags = ['Contra accounts'];
const BASE = '/v1-beta/contra-accounts';

export function registerContraAccountRoutes(app: App, { db }: RouteDeps): void {
  app.post(
    BASE,
    {
      config: { scope: 'contra-accounts:write' },
      schema: {
        operationId: 'createContraAccount',
        summary: 'Create a contra account',
        description:
          'One contra account per company, kind and currency (currency only for ADDITIONAL_CURRENCY_WALLET, required there), and per externalId when given. 201 when created; 200 when the company has this contra account with exactly these fields (a safe replay); 409 CONTRA_ACCOUNT_ALREADY_EXISTS, with existingId, when its kind and currency or its externalId are taken by a different one. accountId must be an account of the company (else 400 UNKNOWN_ACCOUNT).',
        tags,
        body: ContraAccountCreateSchema,
        response: {
          200: { ...ContraAccountEnvelope, description: 'The request matched an existing contra account' },
          201: { ...ContraAccountEnvelope, description: 'Contra account created' },
          ...errorResponses(409),
        },
      },
    },
    async (request, reply) => {
      const { contraAccount, created } = await operations.createContraAccount(db, request.principal, request.body);
      return reply.status(created ? 201 : 200).send({ data: contraAccount });
    },
  );

  app.get(
    `${BASE}/:contraAccountId`,
    {
      config: { scope: 'contra-accounts:read' },
      schema: {
        operationId: 'getContraAccount',
        summary: 'Get a contra account',
        tags,
        params: ContraAccountIdParams,
        response: { 200: ContraAccountEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await operations.getContraAccount(db, request.principal, request.params.contraAccountId),
    }),
  );

  app.put(
    `${BASE}/:contraAccountId`,
    {
      config: { scope: 'contra-accounts:write' },
      schema: {
        operationId: 'updateContraAccount',
        summary: 'Update a contra account',
        description:
          'Replaces the account and metadata (an omitted metadata becomes null); kind and currency stay. accountId must be an account of the company (else 400 UNKNOWN_ACCOUNT).',
        tags,
        params: ContraAccountIdParams,
        body: ContraAccountUpdateSchema,
        response: { 200: ContraAccountEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await operations.updateContraAccount(db, request.principal, request.params.contraAccountId, request.body),
    }),
  );

  app.delete(
    `${BASE}/:contraAccountId`,
    {
      config: { scope: 'contra-accounts:write' },
      schema: {
        operationId: 'deleteContraAccount',
        summary: 'Delete a contra account',
        description: 'Its account stays, and can be deleted once nothing else uses it.',
        tags,
        params: ContraAccountIdParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await operations.deleteContraAccount(db, request.principal, request.params.contraAccountId);
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${BASE}::search`,
    {
      config: { scope: 'contra-accounts:read' },
      preValidation: splitCommaLists,
      schema: {
        operationId: 'searchContraAccounts',
        summary: 'Search contra accounts',
        description:
          'Filters are ANDed: ids, kinds, currencies and accountIds (each any of), externalId (exact). Sorted by kind, then currency, unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
        tags,
        querystring: ContraAccountSearchQuery,
        body: ContraAccountSearchSchema,
        response: { 200: ContraAccountPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = operations.toContraAccountFilters(request.body);
      const page = parsePageRequest(request, {
        resource: 'contra-accounts',
        filters,
        defaultSort: [
          { key: 'kind', order: 'ASC' },
          { key: 'currency', order: 'ASC' },
        ],
        columns: CONTRA_ACCOUNT_SORT_COLUMNS,
      });
      const result = await operations.searchContraAccounts(db, request.principal, filters, page);
      return sendPage(reply, result, page);
    },
  );
}
