// Response schemas of the reference's files, copied as published (OpenAPI 3.0: `nullable`), so
// tests can check that answers match the reference as well as our own document: chart-of-accounts
// v1 (pleo-chart-of-accounts-v1 openapi, info.version 24.9.0) and the tax calculation (pleo-tax-codes
// openapi). The reference allows only objects (or null) as metadata values, where the service keeps
// any JSON: tests that check against these schemas use object values.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

const metadata = {
  type: 'object',
  additionalProperties: { type: 'object', nullable: true },
  nullable: true,
};

const account = {
  type: 'object',
  required: ['archived', 'companyId', 'externalId', 'id', 'name'],
  properties: {
    archived: { type: 'boolean' },
    code: { type: 'string', nullable: true },
    companyId: { type: 'string', format: 'uuid' },
    externalId: { type: 'string' },
    id: { type: 'string', format: 'uuid' },
    metadata,
    name: { type: 'string' },
    taxCodeExternalId: { type: 'string', nullable: true },
  },
};

const batchItem = {
  type: 'object',
  required: ['archived', 'externalId', 'name'],
  properties: {
    archived: { type: 'boolean' },
    code: { type: 'string', maxLength: 255, minLength: 0, nullable: true },
    externalId: { type: 'string', maxLength: 255, minLength: 1 },
    metadata,
    name: { type: 'string', maxLength: 255, minLength: 0 },
    taxCodeExternalId: { type: 'string', nullable: true },
  },
};

const money = {
  type: 'object',
  required: ['currency', 'minors'],
  properties: { currency: { type: 'string' }, minors: { type: 'integer' } },
};

const pageOrder = {
  type: 'string',
  enum: ['ASC', 'ASC_NULLS_FIRST', 'ASC_NULLS_LAST', 'DESC', 'DESC_NULLS_FIRST', 'DESC_NULLS_LAST'],
};

export const REFERENCE_SCHEMAS = {
  DataResponseBookkeepingAccountRestModelV1: { type: 'object', required: ['data'], properties: { data: account } },
  DataResponseBookkeepingAccountBatchCreateResponseV1: {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['created', 'failed'],
        properties: {
          created: { type: 'array', items: account },
          failed: {
            type: 'array',
            items: {
              type: 'object',
              required: ['reasons', 'request'],
              properties: {
                reasons: {
                  type: 'array',
                  items: {
                    type: 'string',
                    enum: [
                      'EXTERNAL_ID_ALREADY_EXISTS',
                      'EXTERNAL_ID_TOO_LONG',
                      'EXTERNAL_ID_EMPTY',
                      'NAME_TOO_LONG',
                      'NAME_EMPTY',
                      'CODE_TOO_LONG',
                      'OTHER',
                    ],
                  },
                },
                request: batchItem,
              },
            },
          },
        },
      },
    },
  },
  CursorPaginatedResponseBookkeepingAccountRestModelV1: {
    type: 'object',
    required: ['data', 'pagination'],
    properties: {
      data: { type: 'array', items: account },
      pagination: {
        type: 'object',
        required: ['currentRequestPagination', 'hasNextPage', 'hasPreviousPage'],
        properties: {
          currentRequestPagination: {
            type: 'object',
            required: ['parameters'],
            properties: {
              after: { type: 'string' },
              before: { type: 'string' },
              limit: { type: 'integer' },
              offset: { type: 'integer' },
              parameters: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
              sortingKeys: { type: 'array', items: { type: 'string' } },
              sortingOrder: { type: 'array', items: pageOrder },
            },
          },
          endCursor: { type: 'string' },
          hasNextPage: { type: 'boolean' },
          hasPreviousPage: { type: 'boolean' },
          startCursor: { type: 'string' },
          total: { type: 'integer' },
        },
      },
    },
  },
  DataResponseCalculateTaxesResponse: {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'object',
        required: ['taxes'],
        properties: {
          taxes: {
            type: 'object',
            additionalProperties: {
              type: 'array',
              items: {
                type: 'object',
                required: ['amountTaxBreakdown', 'id'],
                properties: {
                  amountTaxBreakdown: {
                    type: 'object',
                    required: ['gross', 'net', 'tax'],
                    properties: { gross: money, net: money, tax: money },
                  },
                  id: { type: 'string' },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);

/** Throws unless `body` matches the reference schema `name`. */
export function assertMatchesReference(name: keyof typeof REFERENCE_SCHEMAS, body: unknown): void {
  const validate = ajv.compile(REFERENCE_SCHEMAS[name]);
  if (!validate(body)) {
    throw new Error(
      `does not match the reference's ${name}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`,
    );
  }
}
