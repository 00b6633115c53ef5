// SQL for bookkeeping preferences: one row per company that stored them.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { BookkeepingPreferences } from './schemas.ts';

const COLUMNS = `company_id AS "companyId", bookkeeping_method AS "bookkeepingMethod",
  export_expenses_as_positive_amounts AS "exportExpensesAsPositiveAmounts", export_format AS "exportFormat",
  metadata, ${isoTimestamp('updated_at')} AS "updatedAt"`;

export type PreferenceFields = Omit<BookkeepingPreferences, 'companyId' | 'updatedAt'>;

export async function findPreferences(db: Queryable, companyId: string): Promise<BookkeepingPreferences | undefined> {
  const [row] = await db.query<BookkeepingPreferences>(
    `SELECT ${COLUMNS} FROM bookkeeping_preferences WHERE company_id = $1`,
    [companyId],
  );
  return row;
}

/** Stores the company's preferences, replacing any stored before. */
export async function upsertPreferences(
  db: Queryable,
  companyId: string,
  fields: PreferenceFields,
): Promise<BookkeepingPreferences> {
  const [row] = await db.query<BookkeepingPreferences>(
    `INSERT INTO bookkeeping_preferences AS p
       (company_id, bookkeeping_method, export_expenses_as_positive_amounts, export_format, metadata)
     VALUES ($1, $2, $3, $4, $5::jsonb)
     ON CONFLICT (company_id) DO UPDATE SET bookkeeping_method = excluded.bookkeeping_method,
       export_expenses_as_positive_amounts = excluded.export_expenses_as_positive_amounts,
       export_format = excluded.export_format, metadata = excluded.metadata, updated_at = now()
     RETURNING ${COLUMNS}`,
    [
      companyId,
      fields.bookkeepingMethod,
      fields.exportExpensesAsPositiveAmounts,
      fields.exportFormat,
      fields.metadata === null ? null : JSON.stringify(fields.metadata),
    ],
  );
  if (!row) throw new Error('the preferences upsert returned no row');
  return row;
}
