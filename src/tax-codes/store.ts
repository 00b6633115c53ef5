// SQL for tax codes. Every statement is scoped to the companies the caller may see, so a row of
// another company is indistinguishable from a missing one.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import type { SqlParams } from '../db/sql-params.ts';
import type { TaxCode, TaxCodeType } from './schemas.ts';

export const TAX_CODE_SORT_COLUMNS: Record<string, SortColumn> = {
  name: { sql: 'name', type: 'text' },
  code: { sql: 'code', type: 'text', nullable: true },
  id: { sql: 'id', type: 'uuid' },
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  updatedAt: { sql: 'updated_at', type: 'timestamptz' },
};

// rate is numeric in the table (exact) and a JSON number in the API; float8 reads it back as the
// number that was written. Timestamps are formatted here so both backends answer the same text.
const COLUMNS = `id, company_id AS "companyId", name, code, rate::float8 AS rate, type, archived,
  ingoing_tax_account AS "ingoingTaxAccount", outgoing_tax_account AS "outgoingTaxAccount",
  accounting_integration_system AS "accountingIntegrationSystem",
  ${isoTimestamp('created_at')} AS "createdAt",
  ${isoTimestamp('updated_at')} AS "updatedAt"`;

/** The fields a client sets, on create and (all of them) on update. */
export interface TaxCodeFields {
  name: string;
  code: string | null;
  rate: number;
  type: string;
  archived: boolean;
  ingoingTaxAccount: string | null;
  outgoingTaxAccount: string | null;
}

/** Whether the company has a tax code with this code (an account's taxCodeExternalId names one). */
export async function taxCodeCodeExists(db: Queryable, companyId: string, code: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM tax_codes WHERE company_id = $1 AND code = $2', [companyId, code]);
  return rows.length > 0;
}

/**
 * Inserts the tax code, created by an integration of `accountingIntegrationSystem` (its token's
 * claim, or null); throws a unique violation when the company already has its code.
 */
export async function insertTaxCode(
  db: Queryable,
  companyId: string,
  fields: TaxCodeFields,
  accountingIntegrationSystem: string | null,
): Promise<TaxCode> {
  const [row] = await db.query<TaxCode>(
    `INSERT INTO tax_codes (company_id, name, code, rate, type, archived, ingoing_tax_account, outgoing_tax_account,
       accounting_integration_system)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
     RETURNING ${COLUMNS}`,
    [companyId, ...fieldValues(fields), accountingIntegrationSystem],
  );
  if (!row) throw new Error('INSERT INTO tax_codes returned no row');
  return row;
}

export async function findTaxCode(
  db: Queryable,
  id: string,
  companies: readonly string[],
  options: { forUpdate?: boolean } = {},
): Promise<TaxCode | undefined> {
  const [row] = await db.query<TaxCode>(
    `SELECT ${COLUMNS} FROM tax_codes WHERE id = $1 AND company_id = ANY($2::uuid[])${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, companies],
  );
  return row;
}

/**
 * The rate (exact, as PostgreSQL prints the stored numeric) and type of each tax code of `ids` the
 * caller may see; the others are missing from the answer.
 */
export async function findTaxRates(
  db: Queryable,
  ids: readonly string[],
  companies: readonly string[],
): Promise<{ id: string; rate: string; type: TaxCodeType }[]> {
  return db.query(
    'SELECT id, rate::text AS rate, type FROM tax_codes WHERE id = ANY($1::uuid[]) AND company_id = ANY($2::uuid[])',
    [ids, companies],
  );
}

/** The id of the company's tax code with this code, if any (for a conflict's existingId). */
export async function findTaxCodeIdByCode(db: Queryable, companyId: string, code: string): Promise<string | undefined> {
  const [row] = await db.query<{ id: string }>('SELECT id FROM tax_codes WHERE company_id = $1 AND code = $2', [
    companyId,
    code,
  ]);
  return row?.id;
}

/** Replaces the fields; throws a unique violation when another tax code of the company has the code. */
export async function updateTaxCode(db: Queryable, id: string, fields: TaxCodeFields): Promise<TaxCode> {
  const [row] = await db.query<TaxCode>(
    `UPDATE tax_codes SET name = $2, code = $3, rate = $4, type = $5, archived = $6, ingoing_tax_account = $7,
       outgoing_tax_account = $8, updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, ...fieldValues(fields)],
  );
  if (!row) throw new Error(`tax code ${id} vanished inside its update transaction`);
  return row;
}

/** Deletes the tax code; answers its last state, or undefined when there is none the caller may see. */
export async function deleteTaxCode(
  db: Queryable,
  id: string,
  companies: readonly string[],
): Promise<TaxCode | undefined> {
  const [row] = await db.query<TaxCode>(
    `DELETE FROM tax_codes WHERE id = $1 AND company_id = ANY($2::uuid[]) RETURNING ${COLUMNS}`,
    [id, companies],
  );
  return row;
}

export interface TaxCodeFilters {
  companyId: string;
  ids: string[] | null;
  code: string | null;
  type: string | null;
  archived: boolean | null;
}

export async function searchTaxCodes(db: Queryable, filters: TaxCodeFilters, position: PagePosition): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(COLUMNS),
    from: 'tax_codes',
    filter: (params) => taxCodeConditions(filters, params),
    columns: TAX_CODE_SORT_COLUMNS,
    ...position,
  });
}

function taxCodeConditions(filters: TaxCodeFilters, params: SqlParams): string[] {
  const conditions = [`company_id = ${params.add(filters.companyId)}`];
  if (filters.ids) conditions.push(`id = ANY(${params.add(filters.ids)}::uuid[])`);
  if (filters.code !== null) conditions.push(`code = ${params.add(filters.code)}`);
  if (filters.type !== null) conditions.push(`type = ${params.add(filters.type)}`);
  if (filters.archived !== null) conditions.push(`archived = ${params.add(filters.archived)}`);
  return conditions;
}

function fieldValues(fields: TaxCodeFields): unknown[] {
  return [
    fields.name,
    fields.code,
    fields.rate,
    fields.type,
    fields.archived,
    fields.ingoingTaxAccount,
    fields.outgoingTaxAccount,
  ];
}
