// The bookkeeping categories contract (docs/decisions/bookkeeping.md): category groups, categories
// and the aggregated view. Request and response schemas, which are also the OpenAPI document's,
// and the types the code and tests share.
import Type, { type Static } from 'typebox';
import { Metadata, NO_NUL, TaxCodeExternalId } from '../accounts/schemas.ts';
import { pageQueryProperties } from '../http/pagination/page-request.ts';
import { PageInfoSchema } from '../http/pagination/page-response.ts';
import { DataEnvelope, IdList, Nullable, Timestamp, Uuid } from '../http/schemas.ts';
import { CATEGORIES_PER_GROUP } from './aggregated-store.ts';

/** The reference's BookkeepingCategoryGroupTypeRestModelV5. */
export const GROUP_TYPES = [
  'ENTERTAINMENT',
  'EQUIPMENT_AND_HARDWARE',
  'MARKETING_AND_ADVERTISING',
  'MEALS_AND_DRINKS',
  'OFFICE_EXPENSES',
  'PHONE_AND_INTERNET',
  'SERVICES_AND_CONSULTANCY',
  'SOFTWARE',
  'SUPPLIES',
  'TRAVEL',
  'OTHER',
  'NO_SUITABLE_CATEGORY',
] as const;

export const GROUP_SORT_KEYS = ['name', 'type', 'id', 'createdAt', 'updatedAt'] as const;
export const CATEGORY_SORT_KEYS = ['name', 'id', 'createdAt', 'updatedAt'] as const;

const Name = (description: string) =>
  Type.String({ minLength: 1, maxLength: 255, pattern: NO_NUL, description, examples: ['Travel'] });
const ExternalId = Nullable(
  Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: NO_NUL,
    description: 'Identifier in the external system, unique per company; null when the record has none',
  }),
);
const GroupType = Type.String({
  enum: [...GROUP_TYPES],
  description: 'What the group holds, for the app to classify it',
  examples: ['TRAVEL'],
});
const Archived = Type.Boolean({ description: 'Whether it is archived' });
const Timestamps = {
  createdAt: Timestamp('When it was created (UTC)'),
  updatedAt: Timestamp('When it was last changed (UTC)'),
};

export const GroupSchema = Type.Object(
  {
    id: Uuid('Identifier of the category group in ledgerhook'),
    companyId: Uuid('Company the group belongs to'),
    externalId: ExternalId,
    name: Type.String({ description: 'Name of the group' }),
    type: GroupType,
    archived: Archived,
    metadata: Metadata,
    ...Timestamps,
  },
  { description: 'A bookkeeping category group' },
);

export const GroupCreateSchema = Type.Object({
  companyId: Uuid('Company the group belongs to'),
  externalId: Type.Optional(ExternalId),
  name: Name('Name of the group'),
  type: GroupType,
  archived: Archived,
  metadata: Type.Optional(Metadata),
});

export const GroupUpdateSchema = Type.Object({
  name: Name('Name of the group'),
  type: GroupType,
  archived: Archived,
  metadata: Type.Optional(Metadata),
});

export const GroupSearchSchema = Type.Object({
  companyId: Uuid('The company whose groups to search'),
  ids: IdList('Any of these group ids'),
  types: Type.Optional(
    Nullable(
      Type.Array(GroupType, { uniqueItems: true, maxItems: GROUP_TYPES.length, description: 'Any of these types' }),
    ),
  ),
  externalId: Type.Optional(
    Nullable(Type.String({ maxLength: 255, pattern: NO_NUL, description: 'Exact externalId' })),
  ),
  archived: Type.Optional(Nullable(Type.Boolean({ description: 'Archived or not; both when omitted' }))),
});

export const CategorySchema = Type.Object(
  {
    id: Uuid('Identifier of the category in ledgerhook'),
    companyId: Uuid('Company the category belongs to'),
    externalId: ExternalId,
    name: Type.String({ description: 'Name of the category', examples: ['Flights'] }),
    groupId: Uuid('The category group it belongs to'),
    accountId: Uuid('The account its expenses are booked to'),
    taxCodeExternalId: TaxCodeExternalId,
    archived: Archived,
    metadata: Metadata,
    ...Timestamps,
  },
  { description: 'A bookkeeping category: what an expense is filed under' },
);

const CategoryFields = {
  name: Name('Name of the category'),
  groupId: Uuid('A category group of the same company (else 400 UNKNOWN_BOOKKEEPING_CATEGORY_GROUP)'),
  accountId: Uuid('An account of the same company (else 400 UNKNOWN_ACCOUNT)'),
  taxCodeExternalId: Type.Optional(TaxCodeExternalId),
  archived: Archived,
  metadata: Type.Optional(Metadata),
};

export const CategoryCreateSchema = Type.Object({
  companyId: Uuid('Company the category belongs to'),
  externalId: Type.Optional(ExternalId),
  ...CategoryFields,
});

export const CategoryUpdateSchema = Type.Object(CategoryFields);

export const CategorySearchSchema = Type.Object({
  companyId: Uuid('The company whose categories to search'),
  ids: IdList('Any of these category ids'),
  groupIds: IdList('In any of these groups'),
  accountIds: IdList('Booked to any of these accounts'),
  externalId: GroupSearchSchema.properties.externalId,
  archived: GroupSearchSchema.properties.archived,
});

const AggregatedAccountSchema = Type.Object(
  {
    id: Uuid('The account'),
    code: Nullable(Type.String({ description: 'Account code or number' })),
    name: Type.String({ description: 'Name of the account' }),
    archived: Archived,
  },
  { description: 'The account the category books to' },
);

const AggregatedCategorySchema = Type.Object(
  {
    id: Uuid('The category'),
    externalId: ExternalId,
    name: Type.String({ description: 'Name of the category' }),
    archived: Archived,
    taxCodeExternalId: TaxCodeExternalId,
    account: AggregatedAccountSchema,
  },
  { description: 'A category of the group, with its account' },
);

export const AggregatedGroupSchema = Type.Object(
  {
    ...GroupSchema.properties,
    categories: Type.Array(AggregatedCategorySchema, {
      maxItems: CATEGORIES_PER_GROUP,
      description: `The group's first ${CATEGORIES_PER_GROUP} categories (those with the archived flag categoryArchived, when given), by name then id`,
    }),
    hasMoreCategories: Type.Optional(
      Type.Boolean({
        description: `Whether the group has more categories than these ${CATEGORIES_PER_GROUP}. Always present in answers. The rest: POST /v1-beta/bookkeeping-categories:search?offset=${CATEGORIES_PER_GROUP} with groupIds [the group's id] and archived as categoryArchived, whose default order (name, then id) is this one; then on by its endCursor.`,
      }),
    ),
  },
  { description: 'A category group with its categories and their accounts' },
);

export const AggregatedSearchSchema = Type.Object({
  ...GroupSearchSchema.properties,
  categoryArchived: Type.Optional(
    Nullable(Type.Boolean({ description: 'Only categories with this archived flag; all when omitted' })),
  ),
});

export const GroupIdParams = Type.Object({ groupId: Uuid('The category group') });
export const CategoryIdParams = Type.Object({ categoryId: Uuid('The category') });
export const GroupSearchQuery = Type.Object(pageQueryProperties(GROUP_SORT_KEYS));
export const CategorySearchQuery = Type.Object(pageQueryProperties(CATEGORY_SORT_KEYS));

export const GroupEnvelope = DataEnvelope(GroupSchema, 'One category group');
export const CategoryEnvelope = DataEnvelope(CategorySchema, 'One category');
export const GroupPageSchema = Type.Object({ data: Type.Array(GroupSchema), pagination: PageInfoSchema });
export const CategoryPageSchema = Type.Object({ data: Type.Array(CategorySchema), pagination: PageInfoSchema });
export const AggregatedPageSchema = Type.Object({
  data: Type.Array(AggregatedGroupSchema),
  pagination: PageInfoSchema,
});

export type Group = Static<typeof GroupSchema>;
export type GroupCreate = Static<typeof GroupCreateSchema>;
export type GroupUpdate = Static<typeof GroupUpdateSchema>;
export type GroupSearch = Static<typeof GroupSearchSchema>;
export type Category = Static<typeof CategorySchema>;
export type CategoryCreate = Static<typeof CategoryCreateSchema>;
export type CategoryUpdate = Static<typeof CategoryUpdateSchema>;
export type CategorySearch = Static<typeof CategorySearchSchema>;
export type AggregatedSearch = Static<typeof AggregatedSearchSchema>;
