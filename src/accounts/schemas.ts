// The accounts contract (docs/decisions/api-conventions.md): request and response schemas, which are
// also the OpenAPI document's, and the types the code and tests share.
import Type, { type Static } from 'typebox';
import { pageQueryProperties } from '../http/pagination/page-request.ts';
import { PageInfoSchema } from '../http/pagination/page-response.ts';
import { DataEnvelope, Nullable, Uuid } from '../http/schemas.ts';

export const ACCOUNT_SORT_KEYS = ['name', 'code', 'externalId', 'id', 'createdAt', 'updatedAt'] as const;

// PostgreSQL text cannot hold NUL: refused as invalid input rather than failing in the database.
export const NO_NUL = '^[^\\x00]*$';
export const Text255 = (description: string) =>
  Type.String({ minLength: 0, maxLength: 255, pattern: NO_NUL, description });

export const Metadata = Nullable(
  Type.Record(Type.String(), Type.Unknown(), { description: 'Free-form JSON for API users, at most 64 KiB' }),
);

export const TaxCodeExternalId = Nullable(
  Type.String({
    maxLength: 255,
    pattern: NO_NUL,
    description:
      'Identifier, in the target system, of the tax code of the account. Not the percentage, not the uuid of the tax code.',
  }),
);

export const AccountSchema = Type.Object(
  {
    id: Uuid('Identifier of the account in ledgerhook'),
    companyId: Uuid('Company the account belongs to'),
    externalId: Type.String({ description: 'Unique identifier in the external system; may equal code' }),
    name: Type.String({ description: 'Name of the account' }),
    archived: Type.Boolean({ description: 'Whether the account is archived' }),
    code: Nullable(Type.String({ description: 'Account code or number in the external chart of accounts' })),
    taxCodeExternalId: TaxCodeExternalId,
    metadata: Metadata,
  },
  { description: 'An account of a company chart of accounts' },
);

export const AccountSearchItemSchema = Type.Object(
  {
    ...AccountSchema.properties,
    accountingSystem: Type.Optional(
      Type.String({ description: 'The accounting system of the integration that created the account' }),
    ),
  },
  { description: 'An account, as search returns it' },
);

export const AccountCreateSchema = Type.Object({
  archived: Type.Boolean(),
  companyId: Uuid('Company the account belongs to'),
  externalId: Text255('Unique identifier in the external system'),
  name: Text255('Name of the account'),
  code: Type.Optional(Nullable(Text255('Account code or number'))),
  taxCodeExternalId: Type.Optional(TaxCodeExternalId),
  metadata: Type.Optional(Metadata),
});

export const AccountUpdateSchema = Type.Object({
  archived: Type.Boolean(),
  name: Text255('Name of the account'),
  code: Type.Optional(Nullable(Text255('Account code or number'))),
  taxCodeExternalId: Type.Optional(TaxCodeExternalId),
  metadata: Type.Optional(Metadata),
});

export const AccountSearchSchema = Type.Object({
  companyId: Uuid('The company whose accounts to search'),
  // The reference's search requests declare each id nullable: a null entry matches no account, as
  // a null entry of the v1 search's codes does.
  ids: Type.Optional(
    Nullable(
      Type.Array(Nullable(Uuid()), {
        uniqueItems: true,
        maxItems: 1000,
        description: 'Any of these ids (a null entry matches no account)',
      }),
    ),
  ),
  name: Type.Optional(Nullable(Text255('Case-insensitive substring of the name'))),
  code: Type.Optional(Nullable(Text255('Exact code'))),
  externalId: Type.Optional(Nullable(Text255('Exact externalId'))),
  archived: Type.Optional(Nullable(Type.Boolean({ description: 'Archived or not' }))),
  excludeIfAssignedToContraAccount: Type.Optional(
    Type.Boolean({ default: false, description: 'Leave out the accounts that contra accounts use' }),
  ),
  excludeIfAssignedToCategory: Type.Optional(
    Type.Boolean({ default: false, description: 'Leave out the accounts bookkeeping categories book to' }),
  ),
});

export const AccountIdParams = Type.Object({ accountId: Uuid('The account') });
export const AccountSearchQuery = Type.Object(pageQueryProperties(ACCOUNT_SORT_KEYS));

export const AccountEnvelope = DataEnvelope(AccountSchema, 'One account');
export const AccountPageSchema = Type.Object({ data: Type.Array(AccountSearchItemSchema), pagination: PageInfoSchema });

export type Account = Static<typeof AccountSchema>;
export type AccountSearchItem = Static<typeof AccountSearchItemSchema>;
export type AccountCreate = Static<typeof AccountCreateSchema>;
export type AccountUpdate = Static<typeof AccountUpdateSchema>;
export type AccountSearch = Static<typeof AccountSearchSchema>;
