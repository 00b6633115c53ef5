// SQL shared by the bookkeeping tables whose rows are a company's records with an optional
// externalId (docs/decisions/bookkeeping.md). Every statement that takes an id is scoped to the
// companies the caller may see, so a row of another company is indistinguishable from a missing one.
// Column names come from the code, never from a request.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';

export interface RecordTable {
  table: string;
  /** The record as the API shows it: `column AS "field"`, …; what every statement returns. */
  columns: string;
}

/** The id, company, externalId, metadata and timestamps every record shows, before and after its own fields. */
export function recordColumns(own: string): string {
  return `id, company_id AS "companyId", external_id AS "externalId", ${own}, metadata,
    ${isoTimestamp('created_at')} AS "createdAt", ${isoTimestamp('updated_at')} AS "updatedAt"`;
}

/** Column name → value; metadata objects are written as JSON. */
export type ColumnValues = Record<string, unknown>;

/** Inserts the record, or returns undefined when its company already has its externalId. */
export async function insertRecord<T>(
  db: Queryable,
  { table, columns }: RecordTable,
  values: ColumnValues,
): Promise<T | undefined> {
  const names = Object.keys(values);
  const [row] = await db.query<T>(
    `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})
     ON CONFLICT (company_id, external_id) DO NOTHING
     RETURNING ${columns}`,
    names.map((name) => toParam(values[name])),
  );
  return row;
}

/** Replaces the columns of `values` and sets updated_at. The row must exist (locked by the caller). */
export async function updateRecord<T>(
  db: Queryable,
  { table, columns }: RecordTable,
  id: string,
  values: ColumnValues,
): Promise<T> {
  const names = Object.keys(values);
  const [row] = await db.query<T>(
    `UPDATE ${table} SET ${names.map((name, i) => `${name} = $${i + 2}`).join(', ')}, updated_at = now()
     WHERE id = $1 RETURNING ${columns}`,
    [id, ...names.map((name) => toParam(values[name]))],
  );
  if (!row) throw new Error(`${table} ${id} vanished inside its update transaction`);
  return row;
}

/** The record, when the caller may see it; locked until the transaction ends with `forUpdate`. */
export async function findRecord<T>(
  db: Queryable,
  { table, columns }: RecordTable,
  id: string,
  companies: readonly string[],
  options: { forUpdate?: boolean } = {},
): Promise<T | undefined> {
  const [row] = await db.query<T>(
    `SELECT ${columns} FROM ${table} WHERE id = $1 AND company_id = ANY($2::uuid[])${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, companies],
  );
  return row;
}

export async function findRecordByExternalId<T>(
  db: Queryable,
  { table, columns }: RecordTable,
  companyId: string,
  externalId: string,
): Promise<T | undefined> {
  const [row] = await db.query<T>(`SELECT ${columns} FROM ${table} WHERE company_id = $1 AND external_id = $2`, [
    companyId,
    externalId,
  ]);
  return row;
}

/** Deletes the record; answers its last state, or undefined when there is none the caller may see. */
export async function deleteRecord<T>(
  db: Queryable,
  { table, columns }: RecordTable,
  id: string,
  companies: readonly string[],
): Promise<T | undefined> {
  const [row] = await db.query<T>(
    `DELETE FROM ${table} WHERE id = $1 AND company_id = ANY($2::uuid[]) RETURNING ${columns}`,
    [id, companies],
  );
  return row;
}

function toParam(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : value;
}
