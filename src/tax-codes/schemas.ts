// The tax codes contract (docs/decisions/tax-codes-and-entries.md, as the reference API's
// /v0/tax-codes): request and response schemas, which are also the OpenAPI document's, and the
// types the code and tests share.
import Type, { type Static } from 'typebox';
import { pageQueryProperties } from '../http/pagination/page-request.ts';
import { PageInfoSchema } from '../http/pagination/page-response.ts';
import { DataEnvelope, IdList, Nullable, Timestamp, Uuid } from '../http/schemas.ts';

export const TAX_CODE_SORT_KEYS = ['name', 'code', 'id', 'createdAt', 'updatedAt'] as const;
export const TAX_CODE_TYPES = ['inclusive', 'exclusive', 'reverse'] as const;

const Text255 = (description: string) => Type.String({ minLength: 0, maxLength: 255, description });

const TaxCodeTypeSchema = Type.String({ enum: [...TAX_CODE_TYPES], description: 'Classification of the tax code' });

const Rate = Type.Number({
  minimum: 0,
  maximum: 1,
  description: 'Rate as a decimal fraction, not a percentage: 0.2 is 20 %',
  examples: [0.25],
});

export const TaxCodeSchema = Type.Object(
  {
    id: Uuid('Identifier of the tax code in ledgerhook'),
    companyId: Uuid('Company the tax code belongs to'),
    name: Type.String({ description: 'Name of the tax code', examples: ['Standardmoms (25 %)'] }),
    code: Nullable(Type.String({ description: "The accounting system's identifier of the tax code" })),
    rate: Rate,
    type: TaxCodeTypeSchema,
    archived: Type.Boolean({ description: 'Whether the tax code is archived' }),
    ingoingTaxAccount: Nullable(Type.String({ description: 'Ingoing tax account, usually for reverse VAT' })),
    outgoingTaxAccount: Nullable(Type.String({ description: 'Outgoing tax account, usually for reverse VAT' })),
    accountingIntegrationSystem: Nullable(
      Type.String({
        description:
          "The accounting system of the integration that created it: its token's accounting_system claim, else null",
      }),
    ),
    createdAt: Timestamp('When the tax code was created (UTC)'),
    updatedAt: Timestamp('When the tax code was last changed (UTC)'),
  },
  { description: 'A tax code of a company' },
);

/** The body of both create and update (the reference API's TaxCodeCreateUpdateModel). */
export const TaxCodeWriteSchema = Type.Object({
  companyId: Uuid('Company of the tax code; on update, the company it already belongs to'),
  name: Text255('Name of the tax code'),
  code: Type.Optional(Nullable(Text255('Identifier in the accounting system; unique per company'))),
  rate: Rate,
  type: TaxCodeTypeSchema,
  archived: Type.Boolean({ description: 'Whether the tax code is archived' }),
  ingoingTaxAccount: Type.Optional(Nullable(Text255('Ingoing tax account'))),
  outgoingTaxAccount: Type.Optional(Nullable(Text255('Outgoing tax account'))),
});

export const TaxCodeSearchSchema = Type.Object({
  archived: Type.Optional(Nullable(Type.Boolean({ description: 'Archived or not; both when omitted' }))),
  code: Type.Optional(Nullable(Type.String({ maxLength: 255, description: 'Exact code' }))),
  taxCodeIds: IdList('Any of these ids'),
  type: Type.Optional(Nullable(TaxCodeTypeSchema)),
});

export const TaxCodeIdParams = Type.Object({ taxCodeId: Uuid('The tax code') });
export const TaxCodeSearchQuery = Type.Object({
  company_id: Type.Optional(
    Uuid('The company whose tax codes to search; may be omitted when the token lists exactly one company'),
  ),
  ...pageQueryProperties(TAX_CODE_SORT_KEYS),
});

export const TaxCodeEnvelope = DataEnvelope(TaxCodeSchema, 'One tax code');
export const TaxCodePageSchema = Type.Object({ data: Type.Array(TaxCodeSchema), pagination: PageInfoSchema });

export type TaxCode = Static<typeof TaxCodeSchema>;
export type TaxCodeWrite = Static<typeof TaxCodeWriteSchema>;
export type TaxCodeSearch = Static<typeof TaxCodeSearchSchema>;
export type TaxCodeType = (typeof TAX_CODE_TYPES)[number];

/**
 * Amounts of POST /v0/tax-codes:calculate-tax-amounts are integers of minor units, at most 15
 * digits: a gross of twice that is still an exact JSON number (below 2^53).
 */
export const MAX_MINORS = 999_999_999_999_999;
/** At most this many amounts in one calculation (else 413 TOO_MANY_ITEMS). */
export const MAX_TAXED_AMOUNTS = 1000;

/** Money in minor units; `maxMinors` bounds an amount sent (a gross answered may be twice that). */
const Money = (maxMinors: number) =>
  Type.Object(
    {
      currency: Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code', examples: ['EUR'] }),
      minors: Type.Integer({
        minimum: -maxMinors,
        maximum: maxMinors,
        description: 'The amount in minor units of the currency (6580 is £65.80, 1500 is 1500 ISK)',
        examples: [6580],
      }),
    },
    { description: 'An amount of money in minor units' },
  );

const TaxedAmountSchema = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 255,
      description: "The caller's identifier of the amount, echoed back",
    }),
    amount: Money(MAX_MINORS),
  },
  { description: 'An amount to apply the tax code to' },
);

export const CalculateTaxesSchema = Type.Object(
  {
    amountsByTaxCodeId: Type.Unsafe<Record<string, Static<typeof TaxedAmountSchema>[]>>({
      ...Type.Record(Type.String(), Type.Array(TaxedAmountSchema)),
      propertyNames: { format: 'uuid' },
      maxProperties: MAX_TAXED_AMOUNTS,
      description: `Tax code id (of a company the token lists) → the amounts to apply it to; at most ${MAX_TAXED_AMOUNTS} amounts in all`,
    }),
  },
  { description: 'Tax code ids and a list of id + amount pairs to calculate tax for' },
);

const TaxesSchema = Type.Object({
  id: Type.String({ description: 'The id of the amount, as sent' }),
  amountTaxBreakdown: Type.Object(
    { gross: Money(2 * MAX_MINORS), net: Money(2 * MAX_MINORS), tax: Money(2 * MAX_MINORS) },
    { description: 'Gross, net and tax of the amount, in its currency' },
  ),
});

export const CalculateTaxesEnvelope = DataEnvelope(
  Type.Object({
    taxes: Type.Record(Type.String(), Type.Array(TaxesSchema), {
      description: 'Under each tax code id as sent, the breakdown of each of its amounts, in the order sent',
    }),
  }),
  'The tax breakdown of every amount',
);

export type CalculateTaxes = Static<typeof CalculateTaxesSchema>;
export type CalculatedTaxes = Static<typeof CalculateTaxesEnvelope>['data'];
