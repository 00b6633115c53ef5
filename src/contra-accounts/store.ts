// SQL for contra accounts. Every statement is scoped to the companies the caller may see, so a row of
// another company is indistinguishable from a missing one.
import type { Queryable } from '../db/database.ts';
import { isoTimestamp } from '../db/iso-timestamp.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PagePosition, rowToJson } from '../db/keyset-page.ts';
import type { SqlParams } from '../db/sql-params.ts';
import type { ContraAccount } from './schemas.ts';

export const CONTRA_ACCOUNT_SORT_COLUMNS: Record<string, SortColumn> = {
  kind: { sql: 'kind', type: 'text' },
  currency: { sql: 'currency', type: 'text', nullable: true },
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  updatedAt: { sql: 'updated_at', type: 'timestamptz' },
  id: { sql: 'id', type: 'uuid' },
};

const COLUMNS = `id, company_id AS "companyId", external_id AS "externalId", kind, currency, account_id AS "accountId", metadata,
  ${isoTimestamp('created_at')} AS "createdAt", ${isoTimestamp('updated_at')} AS "updatedAt"`;

export interface NewContraAccount {
  companyId: string;
  externalId: string | null;
  kind: string;
  currency: string | null;
  accountId: string;
  metadata: Record<string, unknown> | null;
}

/**
 * Inserts the contra account when its account belongs to its company and the company has no contra
 * account of its kind and currency, nor one of its externalId; undefined otherwise. An account
 * deleted meanwhile makes the foreign key fail instead.
 */
export async function insertContraAccount(db: Queryable, row: NewContraAccount): Promise<ContraAccount | undefined> {
  const [inserted] = await db.query<ContraAccount>(
    `INSERT INTO contra_accounts (company_id, external_id, kind, currency, account_id, metadata)
     SELECT company_id, $2, $3, $4, id, $6::jsonb FROM accounts WHERE id = $5 AND company_id = $1
     ON CONFLICT DO NOTHING
     RETURNING ${COLUMNS}`,
    [row.companyId, row.externalId, row.kind, row.currency, row.accountId, jsonOrNull(row.metadata)],
  );
  return inserted;
}

/** The company's contra account with this externalId, if any. */
export async function findContraAccountByExternalId(
  db: Queryable,
  companyId: string,
  externalId: string,
): Promise<ContraAccount | undefined> {
  const [row] = await db.query<ContraAccount>(
    `SELECT ${COLUMNS} FROM contra_accounts WHERE company_id = $1 AND external_id = $2`,
    [companyId, externalId],
  );
  return row;
}

/** The company's contra account of this kind and currency, if any. */
export async function findContraAccountByKind(
  db: Queryable,
  companyId: string,
  kind: string,
  currency: string | null,
): Promise<ContraAccount | undefined> {
  const [row] = await db.query<ContraAccount>(
    `SELECT ${COLUMNS} FROM contra_accounts
     WHERE company_id = $1 AND kind = $2 AND coalesce(currency, '') = coalesce($3::text, '')`,
    [companyId, kind, currency],
  );
  return row;
}

export async function findContraAccount(
  db: Queryable,
  id: string,
  companies: readonly string[],
  options: { forUpdate?: boolean } = {},
): Promise<ContraAccount | undefined> {
  const [row] = await db.query<ContraAccount>(
    `SELECT ${COLUMNS} FROM contra_accounts WHERE id = $1 AND company_id = ANY($2::uuid[])${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, companies],
  );
  return row;
}

export async function updateContraAccount(
  db: Queryable,
  id: string,
  changes: { accountId: string; metadata: Record<string, unknown> | null },
): Promise<ContraAccount> {
  const [row] = await db.query<ContraAccount>(
    `UPDATE contra_accounts SET account_id = $2, metadata = $3::jsonb, updated_at = now()
     WHERE id = $1 RETURNING ${COLUMNS}`,
    [id, changes.accountId, jsonOrNull(changes.metadata)],
  );
  if (!row) throw new Error(`contra account ${id} vanished inside its update transaction`);
  return row;
}

/** Deletes the contra account; answers its last state, or undefined when there is none the caller may see. */
export async function deleteContraAccount(
  db: Queryable,
  id: string,
  companies: readonly string[],
): Promise<ContraAccount | undefined> {
  const [row] = await db.query<ContraAccount>(
    `DELETE FROM contra_accounts WHERE id = $1 AND company_id = ANY($2::uuid[]) RETURNING ${COLUMNS}`,
    [id, companies],
  );
  return row;
}

export interface ContraAccountFilters {
  companyId: string;
  ids: string[] | null;
  externalId: string | null;
  kinds: string[] | null;
  currencies: string[] | null;
  accountIds: string[] | null;
}

export async function searchContraAccounts(
  db: Queryable,
  filters: ContraAccountFilters,
  position: PagePosition,
): Promise<Page> {
  return fetchPage(db, {
    json: rowToJson(COLUMNS),
    from: 'contra_accounts',
    filter: (params) => contraAccountConditions(filters, params),
    columns: CONTRA_ACCOUNT_SORT_COLUMNS,
    ...position,
  });
}

function contraAccountConditions(filters: ContraAccountFilters, params: SqlParams): string[] {
  const conditions = [`company_id = ${params.add(filters.companyId)}`];
  if (filters.ids) conditions.push(`id = ANY(${params.add(filters.ids)}::uuid[])`);
  if (filters.externalId !== null) conditions.push(`external_id = ${params.add(filters.externalId)}`);
  if (filters.kinds) conditions.push(`kind = ANY(${params.add(filters.kinds)}::text[])`);
  if (filters.currencies) conditions.push(`currency = ANY(${params.add(filters.currencies)}::text[])`);
  if (filters.accountIds) conditions.push(`account_id = ANY(${params.add(filters.accountIds)}::uuid[])`);
  return conditions;
}

function jsonOrNull(value: Record<string, unknown> | null): string | null {
  return value === null ? null : JSON.stringify(value);
}
