import type { App, RouteDeps } from '../http/app.ts';
import { answerWithoutBody } from '../http/content-types.ts';
import { parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import { errorResponses } from '../http/schemas.ts';
import * as operations from './operations.ts';
import {
  AccountingEntryCreateSchema,
  AccountingEntryEnvelope,
  AccountingEntryIdParams,
  AccountingEntryPageSchema,
  AccountingEntrySearchQuery,
  AccountingEntrySearchSchema,
} from './schemas.ts';
import { ACCOUNTING_ENTRY_SORT_COLUMNS } from './store.ts';

const tags = ['Accounting entries'];

export function registerAccountingEntryRoutes(app: App, { db }: RouteDeps): void {
  app.post(
    '/v1-beta/accounting-entries',
    {
      config: { scope: 'accounting-entries:write' },
      schema: {
        operationId: 'createAccountingEntry',
        summary: 'Create an accounting entry',
        description:
          'Books an amount on an account. accountId must be an account of the same company (else 400 UNKNOWN_ACCOUNT).',
        tags,
        body: AccountingEntryCreateSchema,
        response: {
          201: { ...AccountingEntryEnvelope, description: 'Accounting entry created' },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const entry = await operations.createAccountingEntry(db, request.principal, request.body);
      return reply.status(201).send({ data: entry });
    },
  );

  app.get(
    '/v1-beta/accounting-entries/:accountingEntryId',
    {
      config: { scope: 'accounting-entries:read' },
      schema: {
        operationId: 'getAccountingEntry',
        summary: 'Get an accounting entry',
        tags,
        params: AccountingEntryIdParams,
        response: { 200: AccountingEntryEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({
      data: await operations.getAccountingEntry(db, request.principal, request.params.accountingEntryId),
    }),
  );

  app.delete(
    '/v1-beta/accounting-entries/:accountingEntryId',
    {
      config: { scope: 'accounting-entries:write' },
      schema: {
        operationId: 'deleteAccountingEntry',
        summary: 'Delete an accounting entry',
        tags,
        params: AccountingEntryIdParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await operations.deleteAccountingEntry(db, request.principal, request.params.accountingEntryId);
      return answerWithoutBody(reply, 204);
    },
  );

  app.post(
    '/v1-beta/accounting-entries::search',
    {
      config: { scope: 'accounting-entries:read' },
      preValidation: splitCommaLists,
      schema: {
        operationId: 'searchAccountingEntries',
        summary: 'Search accounting entries',
        description:
          'Filters are ANDed: ids and accountIds (any of), dateFrom and dateTo (inclusive). Sorted by createdAt unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
        tags,
        querystring: AccountingEntrySearchQuery,
        body: AccountingEntrySearchSchema,
        response: { 200: AccountingEntryPageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = operations.toAccountingEntryFilters(request.body);
      const page = parsePageRequest(request, {
        resource: 'accounting-entries',
        filters,
        defaultSort: [{ key: 'createdAt', order: 'ASC' }],
        columns: ACCOUNTING_ENTRY_SORT_COLUMNS,
      });
      const result = await operations.searchAccountingEntries(db, request.principal, filters, page);
      return sendPage(reply, result, page);
    },
  );
}
