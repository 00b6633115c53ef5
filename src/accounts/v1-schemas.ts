// The chart-of-accounts v1 contract (/v1/chart-of-accounts): the reference's v1 schemas over the
// same accounts as v1-beta (docs/decisions/chart-of-accounts-v1.md). What v1 shares with v1-beta is
// taken from schemas.ts; only what differs is written here.
import Type, { type Static } from 'typebox';
import { Nullable, Uuid } from '../http/schemas.ts';
import { AccountCreateSchema, AccountSchema, AccountSearchSchema, NO_NUL, Text255 } from './schemas.ts';

/** The most items one batch may hold. */
export const BATCH_MAX_ITEMS = 1000;

export const BATCH_FAILURE_REASONS = [
  'EXTERNAL_ID_ALREADY_EXISTS',
  'EXTERNAL_ID_TOO_LONG',
  'EXTERNAL_ID_EMPTY',
  'NAME_TOO_LONG',
  'NAME_EMPTY',
  'CODE_TOO_LONG',
  'OTHER',
] as const;
export type BatchFailureReason = (typeof BATCH_FAILURE_REASONS)[number];

// v1 refuses an empty externalId, which v1-beta's schema allows.
const ExternalIdV1 = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: NO_NUL,
  description: 'Non-empty unique identifier in the external system; may equal code',
});

export const AccountCreateV1Schema = Type.Object({ ...AccountCreateSchema.properties, externalId: ExternalIdV1 });

const { companyId: _company, ...itemProperties } = AccountCreateV1Schema.properties;

export const AccountBatchItemSchema = Type.Object(
  {
    ...itemProperties,
    name: Text255('Name of the account; in a batch, not empty (NAME_EMPTY)'),
    companyId: Type.Optional(Uuid('Absent, or the companyId of the batch (another is a 400 of the whole batch)')),
  },
  { description: 'One account of a batch, created in the company of the batch' },
);

export const AccountBatchCreateSchema = Type.Object({
  companyId: Uuid('The company every account of the batch is created in'),
  items: Type.Array(AccountBatchItemSchema, {
    minItems: 1,
    maxItems: BATCH_MAX_ITEMS,
    description: `1 to ${BATCH_MAX_ITEMS} accounts. Each is validated and created on its own: an invalid item is answered in failed, not as a 400 of the batch.`,
  }),
});

/** What the batch route validates as a whole: its items are judged one by one by the operation. */
export const AccountBatchEnvelopeSchema = Type.Object({
  companyId: Uuid(),
  items: Type.Array(Type.Unknown(), { minItems: 1, maxItems: BATCH_MAX_ITEMS }),
});

export const AccountBatchFailedItemSchema = Type.Object(
  {
    reasons: Type.Array(Type.String({ enum: [...BATCH_FAILURE_REASONS] }), {
      description: 'Why the item was not created; OTHER for any rule without a reason of its own',
    }),
    request: Type.Unknown({ description: 'The item exactly as sent (it need not match the item schema)' }),
  },
  { description: 'An item of the batch that was not created' },
);

export const AccountBatchResultEnvelope = Type.Object({
  data: Type.Object(
    {
      created: Type.Array(AccountSchema, {
        description:
          'The accounts of the valid items, in item order: new ones, and stored ones an item matched exactly (a replay)',
      }),
      failed: Type.Array(AccountBatchFailedItemSchema, { description: 'The other items, in item order' }),
    },
    { description: 'What became of each item of the batch' },
  ),
});

export const AccountSearchV1Schema = Type.Object({
  ...AccountSearchSchema.properties,
  code: Type.Optional(
    Nullable(Type.String({ maxLength: 255, pattern: NO_NUL, deprecated: true, description: 'Exact code; use codes' })),
  ),
  codes: Type.Optional(
    Type.Union([
      Type.Array(Type.Union([Type.String({ maxLength: 255, pattern: NO_NUL }), Type.Null()]), {
        uniqueItems: true,
        maxItems: BATCH_MAX_ITEMS,
        description: 'Any of these codes (a null entry matches no account)',
      }),
      Type.Null(),
    ]),
  ),
});

export type AccountBatchCreate = Static<typeof AccountBatchEnvelopeSchema>;
export type AccountBatchItem = Static<typeof AccountBatchItemSchema>;
export type AccountSearchV1 = Static<typeof AccountSearchV1Schema>;
