// /v1/chart-of-accounts: the reference's stable accounts API over the same accounts, operations
// and store as /v1-beta/accounts (docs/decisions/chart-of-accounts-v1.md).
import type { FastifySchemaCompiler } from 'fastify';
import type { App, RouteDeps } from '../http/app.ts';
import { sendJsonText } from '../http/json-text.ts';
import { errorResponses } from '../http/schemas.ts';
import { compileBodyValidator } from '../http/validation.ts';
import { createAccountsBatch } from './batch-create.ts';
import { registerAccountOperations } from './routes.ts';
import {
  AccountBatchCreateSchema,
  AccountBatchEnvelopeSchema,
  AccountBatchResultEnvelope,
  AccountCreateV1Schema,
  AccountSearchV1Schema,
  BATCH_MAX_ITEMS,
} from './v1-schemas.ts';

const tags = ['Chart of accounts'];
const BASE = '/v1/chart-of-accounts';

export function registerChartOfAccountsRoutes(app: App, deps: RouteDeps): void {
  registerAccountOperations(app, deps, {
    base: BASE,
    tags,
    operationSuffix: 'V1',
    create: {
      body: AccountCreateV1Schema,
      description:
        'Creates the account of a new record of the external system; the same account as /v1-beta/accounts shows. 201 when created; 200 when an account with the same externalId and exactly these fields exists (a safe replay); 409 ACCOUNT_ALREADY_EXISTS, with existingId, when it differs.',
    },
    search: {
      body: AccountSearchV1Schema,
      description:
        'Filters are ANDed: ids and codes (any of), name (case-insensitive substring), code, externalId and archived (exact); excludeIfAssignedToCategory and excludeIfAssignedToContraAccount leave out the accounts bookkeeping categories and contra accounts use. Sorted by name unless sorting_keys says otherwise; id breaks ties. Cursor (after/before) or offset pagination.',
    },
  });

  app.post(
    `${BASE}/batch`,
    {
      config: { scope: 'accounts:write' },
      // Only the batch as a whole is validated here: its items are judged one by one by the operation.
      validatorCompiler: validateBatchEnvelope,
      schema: {
        operationId: 'createAccountsBatchV1',
        summary: 'Create up to 1,000 accounts of one company',
        description: `Creates each valid item (1 to ${BATCH_MAX_ITEMS}) as its own create would, in one request that counts once against the rate limit. An invalid item or one whose externalId is taken by a different account is answered in failed with its reasons and the item as sent; the others in created. An item identical to a stored account is answered in created with that account, so a batch can be sent again whole after a timeout. A repeated externalId in a batch: the first valid item is created; a later identical item is answered with it once, a later different one fails EXTERNAL_ID_ALREADY_EXISTS. 400 only for a malformed batch (no companyId, items not an array of 1 to ${BATCH_MAX_ITEMS}, an item naming another companyId).`,
        tags,
        body: AccountBatchCreateSchema,
        response: {
          201: { ...AccountBatchResultEnvelope, description: 'Each item created (or matched) or failed' },
          ...errorResponses(),
        },
      },
    },
    async (request, reply) => {
      const { created, failed } = await createAccountsBatch(deps.db, request.principal, request.body);
      const json = `{"data":{"created":[${created.join(',')}],"failed":${JSON.stringify(failed)}}}`;
      return sendJsonText(reply.status(201), json);
    },
  );
}

/** The batch route's validators: its body checked as a batch, not item by item. */
const validateBatchEnvelope: FastifySchemaCompiler<unknown> = ({ httpPart }) => {
  if (httpPart !== 'body') throw new Error(`the batch route takes no ${httpPart} schema`);
  return batchEnvelopeValidator;
};

const batchEnvelopeValidator = compileBodyValidator(AccountBatchEnvelopeSchema);
