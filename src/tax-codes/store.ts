import type { Queryable } from '../db/database.ts';

/** Whether the company has a tax code with this code (an account's taxCodeExternalId names one). */
export async function taxCodeCodeExists(db: Queryable, companyId: string, code: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM tax_codes WHERE company_id = $1 AND code = $2', [companyId, code]);
  return rows.length > 0;
}
