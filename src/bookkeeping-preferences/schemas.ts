// The bookkeeping preferences contract (docs/decisions/bookkeeping.md): one object per company, read
// with its defaults until the first PUT stores it.
import Type, { type Static } from 'typebox';
import { Metadata } from '../accounts/schemas.ts';
import { DataEnvelope, Nullable, Timestamp, Uuid } from '../http/schemas.ts';

/** The reference's BookkeepingMethod (chart of accounts v1). */
export const BOOKKEEPING_METHODS = ['NONE', 'JOURNAL', 'ACCOUNTS_PAYABLE'] as const;
export const EXPORT_FORMATS = ['ONE_LINE', 'MULTI_LINE'] as const;

const Method = Type.String({
  enum: [...BOOKKEEPING_METHODS],
  description:
    'How the target system books expenses: JOURNAL as journal entries, ACCOUNTS_PAYABLE as supplier invoices, NONE not at all',
});
const PositiveAmounts = Type.Boolean({
  description: 'Whether expenses are exported as positive amounts (else as negative ones, money leaving the company)',
});
const Format = Type.String({
  enum: [...EXPORT_FORMATS],
  description:
    'ONE_LINE: one line per expense; MULTI_LINE: the net amount, the tax and the contra account on lines of their own',
});

export const BookkeepingPreferencesSchema = Type.Object(
  {
    companyId: Uuid('The company the preferences are of'),
    bookkeepingMethod: Method,
    exportExpensesAsPositiveAmounts: PositiveAmounts,
    exportFormat: Format,
    metadata: Metadata,
    updatedAt: Nullable(Timestamp('When the preferences were last stored (UTC); null while they are the defaults')),
  },
  { description: "A company's bookkeeping preferences" },
);

export const BookkeepingPreferencesWriteSchema = Type.Object({
  companyId: Uuid('The company the preferences are of'),
  bookkeepingMethod: Method,
  exportExpensesAsPositiveAmounts: PositiveAmounts,
  exportFormat: Format,
  metadata: Type.Optional(Metadata),
});

export const BookkeepingPreferencesQuery = Type.Object({
  companyId: Uuid('The company whose preferences to read'),
});

export const BookkeepingPreferencesEnvelope = DataEnvelope(BookkeepingPreferencesSchema, "A company's preferences");

export type BookkeepingPreferences = Static<typeof BookkeepingPreferencesSchema>;
export type BookkeepingPreferencesWrite = Static<typeof BookkeepingPreferencesWriteSchema>;
