// The contra accounts contract (docs/decisions/bookkeeping.md): request and response schemas, which
// are also the OpenAPI document's, and the types the code and tests share.
import Type, { type Static } from 'typebox';
import { Metadata, NO_NUL, Text255 } from '../accounts/schemas.ts';
import { pageQueryProperties } from '../http/pagination/page-request.ts';
import { PageInfoSchema } from '../http/pagination/page-response.ts';
import { DataEnvelope, IdList, Nullable, Timestamp, Uuid } from '../http/schemas.ts';

export const CONTRA_ACCOUNT_SORT_KEYS = ['kind', 'currency', 'createdAt', 'updatedAt', 'id'] as const;

/** Where the money of an expense comes from; only ADDITIONAL_CURRENCY_WALLET names a currency. */
export const CONTRA_ACCOUNT_KINDS = [
  'WALLET',
  'ADDITIONAL_CURRENCY_WALLET',
  'ACCOUNTS_PAYABLE',
  'REIMBURSEMENT',
  'EXTERNAL_REIMBURSEMENT',
] as const;
export const CURRENCY_KIND = 'ADDITIONAL_CURRENCY_WALLET';

const Kind = Type.String({
  enum: [...CONTRA_ACCOUNT_KINDS],
  description:
    "WALLET: the company wallet in its default currency; ADDITIONAL_CURRENCY_WALLET: the wallet in another currency (one per currency); ACCOUNTS_PAYABLE: invoices; REIMBURSEMENT: paying back employees' own money; EXTERNAL_REIMBURSEMENT: reimbursements paid outside the product",
});
const Currency = Type.String({
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 code of an additional wallet currency; null for every other kind',
  examples: ['USD'],
});

const ExternalId = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: NO_NUL,
  description: 'Identifier of the contra account in the ERP, when it has one; unique per company',
});

export const ContraAccountSchema = Type.Object(
  {
    id: Uuid('Identifier of the contra account'),
    companyId: Uuid('Company the contra account belongs to'),
    externalId: Nullable(ExternalId),
    kind: Kind,
    currency: Nullable(Currency),
    accountId: Uuid('The account of the chart of accounts the money is booked against'),
    metadata: Metadata,
    createdAt: Timestamp('When the contra account was created (UTC)'),
    updatedAt: Timestamp('When the contra account was last changed (UTC)'),
  },
  { description: 'Where the money of an expense comes from, and the account it is booked against' },
);

export const ContraAccountCreateSchema = Type.Object({
  companyId: Uuid('Company of the contra account'),
  externalId: Type.Optional(Nullable(ExternalId)),
  kind: Kind,
  currency: Type.Optional(Nullable(Currency)),
  accountId: Uuid('An account of the same company'),
  metadata: Type.Optional(Metadata),
});

export const ContraAccountUpdateSchema = Type.Object({
  accountId: Uuid('An account of the same company'),
  metadata: Type.Optional(Metadata),
});

export const ContraAccountSearchSchema = Type.Object({
  companyId: Uuid('The company whose contra accounts to search'),
  ids: IdList('Any of these contra account ids'),
  externalId: Type.Optional(Nullable(Text255('Exact externalId'))),
  kinds: Type.Optional(Nullable(Type.Array(Kind, { uniqueItems: true, description: 'Any of these kinds' }))),
  currencies: Type.Optional(
    Nullable(Type.Array(Currency, { uniqueItems: true, maxItems: 1000, description: 'Any of these currencies' })),
  ),
  accountIds: IdList('Contra accounts using any of these accounts'),
});

export const ContraAccountIdParams = Type.Object({ contraAccountId: Uuid('The contra account') });
export const ContraAccountSearchQuery = Type.Object(pageQueryProperties(CONTRA_ACCOUNT_SORT_KEYS));

export const ContraAccountEnvelope = DataEnvelope(ContraAccountSchema, 'One contra account');
export const ContraAccountPageSchema = Type.Object({
  data: Type.Array(ContraAccountSchema),
  pagination: PageInfoSchema,
});

export type ContraAccount = Static<typeof ContraAccountSchema>;
export type ContraAccountCreate = Static<typeof ContraAccountCreateSchema>;
export type ContraAccountUpdate = Static<typeof ContraAccountUpdateSchema>;
export type ContraAccountSearch = Static<typeof ContraAccountSearchSchema>;
