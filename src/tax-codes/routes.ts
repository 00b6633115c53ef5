import type { App, RouteDeps } from '../http/app.ts';
import { answerWithoutBody } from '../http/content-types.ts';
import { parsePageRequest, splitCommaLists } from '../http/pagination/page-request.ts';
import { sendPage } from '../http/pagination/page-response.ts';
import { errorResponses } from '../http/schemas.ts';
import * as operations from './operations.ts';
import {
  CalculateTaxesEnvelope,
  CalculateTaxesSchema,
  MAX_MINORS,
  MAX_TAXED_AMOUNTS,
  TaxCodeEnvelope,
  TaxCodeIdParams,
  TaxCodePageSchema,
  TaxCodeSearchQuery,
  TaxCodeSearchSchema,
  TaxCodeWriteSchema,
} from './schemas.ts';
import { TAX_CODE_SORT_COLUMNS } from './store.ts';

const tags = ['Tax codes'];

export function registerTaxCodeRoutes(app: App, { db }: RouteDeps): void {
  app.post(
    '/v0/tax-codes',
    {
      config: { scope: 'tax-codes:write' },
      schema: {
        operationId: 'createTaxCode',
        summary: 'Create a tax code',
        description:
          'The code, when given, is unique per company. A create whose code is taken by a tax code with the same fields is a replay: 200 with the stored tax code, and no event. With other fields it is 409 TAX_CODE_ALREADY_EXISTS.',
        tags,
        body: TaxCodeWriteSchema,
        response: {
          200: { ...TaxCodeEnvelope, description: 'The same tax code was created before (a replay)' },
          201: { ...TaxCodeEnvelope, description: 'Tax code created' },
          ...errorResponses(409),
        },
      },
    },
    async (request, reply) => {
      const { taxCode, created } = await operations.createTaxCode(db, request.principal, request.body);
      return reply.status(created ? 201 : 200).send({ data: taxCode });
    },
  );

  app.get(
    '/v0/tax-codes/:taxCodeId',
    {
      config: { scope: 'tax-codes:read' },
      schema: {
        operationId: 'getTaxCode',
        summary: 'Get a tax code',
        tags,
        params: TaxCodeIdParams,
        response: { 200: TaxCodeEnvelope, ...errorResponses(404) },
      },
    },
    async (request) => ({ data: await operations.getTaxCode(db, request.principal, request.params.taxCodeId) }),
  );

  app.put(
    '/v0/tax-codes/:taxCodeId',
    {
      config: { scope: 'tax-codes:write' },
      schema: {
        operationId: 'updateTaxCode',
        summary: 'Update a tax code',
        description:
          'Replaces every field; an omitted optional field becomes null. companyId must be the company of the tax code. A code another tax code of the company has answers 409 TAX_CODE_ALREADY_EXISTS.',
        tags,
        params: TaxCodeIdParams,
        body: TaxCodeWriteSchema,
        response: { 200: TaxCodeEnvelope, ...errorResponses(404, 409) },
      },
    },
    async (request) => ({
      data: await operations.updateTaxCode(db, request.principal, request.params.taxCodeId, request.body),
    }),
  );

  app.delete(
    '/v0/tax-codes/:taxCodeId',
    {
      config: { scope: 'tax-codes:write' },
      schema: {
        operationId: 'deleteTaxCode',
        summary: 'Delete a tax code',
        description:
          'Also when accounts name its code in taxCodeExternalId: that is a soft reference to the code in the accounting system, which those accounts keep.',
        tags,
        params: TaxCodeIdParams,
        response: { 204: { type: 'null', description: 'Deleted' }, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await operations.deleteTaxCode(db, request.principal, request.params.taxCodeId);
      return answerWithoutBody(reply, 204);
    },
  );

  app.post(
    '/v0/tax-codes::search',
    {
      config: { scope: 'tax-codes:read', optionalBody: true },
      preValidation: splitCommaLists,
      schema: {
        operationId: 'getTaxCodes',
        summary: 'Search tax codes',
        description:
          'The tax codes of company_id (which may be omitted when the token lists exactly one company). Filters are ANDed: taxCodeIds (any of), code, type and archived (exact); the body may be omitted. Sorted by name unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
        tags,
        querystring: TaxCodeSearchQuery,
        body: TaxCodeSearchSchema,
        response: { 200: TaxCodePageSchema, ...errorResponses() },
      },
    },
    async (request, reply) => {
      const filters = operations.toTaxCodeFilters(request.principal, request.query.company_id, request.body);
      const page = parsePageRequest(request, {
        resource: 'tax-codes',
        filters,
        defaultSort: [{ key: 'name', order: 'ASC' }],
        columns: TAX_CODE_SORT_COLUMNS,
      });
      const result = await operations.searchTaxCodes(db, filters, page);
      return sendPage(reply, result, page);
    },
  );

  app.post(
    '/v0/tax-codes::calculate-tax-amounts',
    {
      config: { scope: 'tax-codes:read' },
      schema: {
        operationId: 'calculateTax',
        summary: 'Calculate gross, net and tax amounts for a list of tax code ids and amounts',
        description: `Each amount (minor units, at most ${String(MAX_MINORS).length} digits) under its tax code's rate and type: inclusive takes the amount as gross, exclusive as net, reverse as both gross and net with the self-assessed tax beside them. Tax is exact, rounded to one minor unit half away from zero. At most ${MAX_TAXED_AMOUNTS} amounts (else 413 TOO_MANY_ITEMS). A tax code id that is not one of a company the token lists is 400 TAX_CODE_NOT_FOUND.`,
        tags,
        body: CalculateTaxesSchema,
        response: { 200: CalculateTaxesEnvelope, ...errorResponses() },
      },
    },
    async (request) => ({ data: await operations.calculateTaxAmounts(db, request.principal, request.body) }),
  );
}
