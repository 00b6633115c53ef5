// The accounting entries contract (docs/decisions/tax-codes-and-entries.md): request and response
// schemas, which are also the OpenAPI document's, and the types the code and tests share.
import Type, { type Static } from 'typebox';
import { pageQueryProperties } from '../http/pagination/page-request.ts';
import { PageInfoSchema } from '../http/pagination/page-response.ts';
import { DataEnvelope, IdList, Nullable, Timestamp, Uuid } from '../http/schemas.ts';

export const ACCOUNTING_ENTRY_SORT_KEYS = ['createdAt', 'date', 'amount', 'id'] as const;

// A decimal string, never a JSON number, so no amount is ever rounded through a float: up to 15
// integer digits and 4 decimals (the finest minor unit ISO 4217 uses).
const AMOUNT_PATTERN = '^-?[0-9]{1,15}(\\.[0-9]{1,4})?$';

const Amount = Type.String({
  pattern: AMOUNT_PATTERN,
  description: 'Signed decimal amount as a string, up to 4 decimals; answered as stored (e.g. "-12.50")',
  examples: ['-12.50'],
});
const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 currency code', examples: ['EUR'] });
// PostgreSQL's calendar has no year 0 (1 BC comes before AD 1), which the date format admits.
const EntryDate = (description: string) =>
  Type.String({ format: 'date', formatMinimum: '0001-01-01', description, examples: ['2026-11-22'] });

export const AccountingEntrySchema = Type.Object(
  {
    id: Uuid('Identifier of the accounting entry'),
    companyId: Uuid('Company the entry belongs to'),
    accountId: Uuid('Account the entry is booked on'),
    amount: Amount,
    currency: Currency,
    date: EntryDate('Booking date'),
    description: Nullable(Type.String({ description: 'Free text' })),
    createdAt: Timestamp('When the entry was created (UTC)'),
  },
  { description: 'An accounting entry: an amount booked on an account' },
);

export const AccountingEntryCreateSchema = Type.Object({
  companyId: Uuid('Company the entry belongs to'),
  accountId: Uuid('An account of the same company'),
  amount: Amount,
  currency: Currency,
  date: EntryDate('Booking date'),
  description: Type.Optional(Nullable(Type.String({ maxLength: 1000, description: 'Free text' }))),
});

export const AccountingEntrySearchSchema = Type.Object({
  companyId: Uuid('The company whose entries to search'),
  ids: IdList('Any of these entry ids'),
  accountIds: IdList('Entries of any of these accounts'),
  dateFrom: Type.Optional(Nullable(EntryDate('Entries dated on or after this day'))),
  dateTo: Type.Optional(Nullable(EntryDate('Entries dated on or before this day'))),
});

export const AccountingEntryIdParams = Type.Object({ accountingEntryId: Uuid('The accounting entry') });
export const AccountingEntrySearchQuery = Type.Object(pageQueryProperties(ACCOUNTING_ENTRY_SORT_KEYS));

export const AccountingEntryEnvelope = DataEnvelope(AccountingEntrySchema, 'One accounting entry');
export const AccountingEntryPageSchema = Type.Object({
  data: Type.Array(AccountingEntrySchema),
  pagination: PageInfoSchema,
});

export type AccountingEntry = Static<typeof AccountingEntrySchema>;
export type AccountingEntryCreate = Static<typeof AccountingEntryCreateSchema>;
export type AccountingEntrySearch = Static<typeof AccountingEntrySearchSchema>;
