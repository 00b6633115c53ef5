// SQL for bookkeeping preferences: one row per company that stored them.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { BookkeepingPreferences } from './schemas.ts';

const COLUMNS = `company_id AS "companyId", bookkeeping_method AS "bookkeepingMethod",
  export_expenses_as_positive_amounts AS "exportExpensesAsPositiveAmounts", export_format AS "exportFormat",
  metadata, ${isoTimestamp('updated_at')} AS "updatedAt"`;

export type PreferenceFields = Omit<BookkeepingPreferences, 'companyId' | 'updatedAt'>;

/** The company's stored preferences, if any; locked until the transaction ends with `forUpdate`. */
export async function findPreferences(
  db: Queryable,
  companyId: string,
  options: { forUpdate?: boolean } = {},
): Promise<BookkeepingPreferences | undefined> {
  const [row] = await db.query<BookkeepingPreferences>(
    `SELECT ${COLUMNS} FROM bookkeeping_preferences WHERE company_id = $1${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [companyId],
  );
  return row;
}

/** Stores the company's first preferences; undefined when it has stored some already. */
export async function insertPreferences(
  db: Queryable,
  companyId: string,
  fields: PreferenceFields,
): Promise<BookkeepingPreferences | undefined> {
  const [row] = await db.query<BookkeepingPreferences>(
    `INSERT INTO bookkeeping_preferences
       (company_id, bookkeeping_method, export_expenses_as_positive_amounts, export_format, metadata)
     VALUES ($1, $2, $3, $4, $5::jsonb)
     ON CONFLICT (company_id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [companyId, ...fieldValues(fields)],
  );
  return row;
}

/** Replaces the company's stored preferences. They must exist (locked by the caller). */
export async function updatePreferences(
  db: Queryable,
  companyId: string,
  fields: PreferenceFields,
): Promise<BookkeepingPreferences> {
  const [row] = await db.query<BookkeepingPreferences>(
    `UPDATE bookkeeping_preferences SET bookkeeping_method = $2, export_expenses_as_positive_amounts = $3,
       export_format = $4, metadata = $5::jsonb, updated_at = now()
     WHERE company_id = $1
     RETURNING ${COLUMNS}`,
    [companyId, ...fieldValues(fields)],
  );
  if (!row) throw new Error(`the preferences of ${companyId} vanished inside their update transaction`);
  return row;
}

function fieldValues(fields: PreferenceFields): unknown[] {
  return [
    fields.bookkeepingMethod,
    fields.exportExpensesAsPositiveAmounts,
    fields.exportFormat,
    fields.metadata === null ? null : JSON.stringify(fields.metadata),
  ];
}
