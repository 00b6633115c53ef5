// SQL for accounts. Every statement is scoped to the companies the caller may see, so a row of
// another company is indistinguishable from a missing one.
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Queryable } from '../db/database.ts';
import type { SortColumn } from '../db/keyset.ts';
import { fetchPage, type Page, type PagePosition } from '../db/keyset-page.ts';
import type { SqlParams } from '../db/sql-params.ts';
import { sampledTraceparent } from '../telemetry/trace-context.ts';
import { defersFanOut } from '../webhooks/fan-out.ts';
import {
  DEFERRED_FAN_OUT,
  FIRST_SENT_EVENT,
  recordingEventsDeferredOf,
  recordingEventsOf,
  wakeFanOutWorkers,
  wakeWorkers,
} from '../webhooks/record-event.ts';
import { excludedAccountIds, notAssignedConditions } from './assigned-accounts.ts';
import type { Account } from './schemas.ts';

export const ACCOUNT_SORT_COLUMNS: Record<string, SortColumn> = {
  name: { sql: 'name', type: 'text' },
  code: { sql: 'code', type: 'text', nullable: true },
  externalId: { sql: 'external_id', type: 'text' },
  id: { sql: 'id', type: 'uuid' },
  createdAt: { sql: 'created_at', type: 'timestamptz' },
  updatedAt: { sql: 'updated_at', type: 'timestamptz' },
};

// The fields an account's replay is compared on, and the account as the API shows it.
const STORED_COLUMNS = `id, company_id AS "companyId", external_id AS "externalId", name, archived, code,
  tax_code_external_id AS "taxCodeExternalId", metadata, api_json AS json`;
// What every account answer needs: the account's JSON, and whose it is.
const JSON_COLUMNS = 'id, company_id AS "companyId", api_json AS json';

// A search item as JSON: the account as stored in api_json (migration 0014), and accountingSystem
// only when the creating token had one (docs/decisions/api-conventions.md), added before the
// closing brace.
const SEARCH_ITEM_JSON = `CASE WHEN accounting_system IS NULL THEN api_json
  ELSE left(api_json, -1) || ',"accountingSystem":' || to_json(accounting_system)::text || '}' END`;

/**
 * An account as the API shows it (get, create, update): the JSON text the database keeps
 * (migration 0014), and whose it is.
 */
export interface AccountJson {
  id: string;
  companyId: string;
  json: string;
}

/** A stored account's fields beside its JSON, for comparing a replayed create with it. */
export type StoredAccount = Account & { json: string };

/** An account a batch inserted: its externalId and the JSON the API shows. */
export interface InsertedAccount {
  externalId: string;
  json: string;
}

export interface NewAccount {
  companyId: string;
  externalId: string;
  name: string;
  archived: boolean;
  code: string | null;
  taxCodeExternalId: string | null;
  metadata: Record<string, unknown> | null;
  accountingSystem: string | null;
}

// The create's statement: the account, and its v1.account.created with the JSON the API shows,
// in one round trip (the service's hot path); nothing when the externalId is taken.
const INSERT_ACCOUNT = `WITH inserted AS (
    INSERT INTO accounts (company_id, external_id, name, archived, code, tax_code_external_id, metadata, accounting_system)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
    ON CONFLICT (company_id, external_id) DO NOTHING
    RETURNING ${JSON_COLUMNS}
  ), ${recordingEventsOf(`SELECT 'v1.account.created' AS event_type, "companyId" AS company_id, NULL AS owner,
    json::jsonb AS data, NULL::jsonb AS previous_attributes, $9::text AS traceparent, 1 AS position FROM inserted`)}
  SELECT id, "companyId", json, ${FIRST_SENT_EVENT} AS "sentEventId" FROM inserted`;

/**
 * Inserts the account and records its v1.account.created, or returns undefined and records nothing
 * when its (companyId, externalId) is taken.
 */
export async function insertAccount(db: Queryable, account: NewAccount): Promise<AccountJson | undefined> {
  const [row] = await db.query<AccountJson & { sentEventId: string | null }>(
    INSERT_ACCOUNT,
    [
      account.companyId,
      account.externalId,
      account.name,
      account.archived,
      account.code,
      account.taxCodeExternalId,
      account.metadata === null ? null : JSON.stringify(account.metadata),
      account.accountingSystem,
      sampledTraceparent(),
    ],
    { reusePlan: true },
  );
  wakeWorkers(db, row?.sentEventId);
  return row && { id: row.id, companyId: row.companyId, json: row.json };
}

// A batch's statement: the accounts, skipping each whose externalId is taken, and one
// v1.account.created per account inserted, in the accounts' order (`position`), its data the JSON the
// insert made. Rows go in externalId order, so that two batches that share externalIds wait for each
// other in the same order instead of deadlocking. Only the externalId and JSON of each inserted row
// are read back: it holds the fields the batch asked for.
function insertAccountsStatement(recording: (given: string) => string, queued: string): string {
  return `WITH input AS (
      SELECT * FROM jsonb_to_recordset($2::jsonb) AS a(id uuid, external_id text, name text, archived boolean,
        code text, tax_code_external_id text, metadata jsonb, accounting_system text, position int)
    ), inserted AS (
      INSERT INTO accounts (id, company_id, external_id, name, archived, code, tax_code_external_id, metadata,
        accounting_system)
      SELECT a.id, $1, a.external_id, a.name, a.archived, a.code, a.tax_code_external_id, nullif(a.metadata, 'null'),
        a.accounting_system
      FROM input a ORDER BY a.external_id COLLATE "C"
      ON CONFLICT (company_id, external_id) DO NOTHING
      RETURNING external_id, api_json
    ), ${recording(`SELECT 'v1.account.created' AS event_type, $1::uuid AS company_id, NULL AS owner,
      i.api_json::jsonb AS data, NULL::jsonb AS previous_attributes, $3::text AS traceparent, a.position
      FROM inserted i JOIN input a USING (external_id)`)}
    SELECT external_id AS "externalId", api_json AS json, ${queued} AS queued FROM inserted`;
}
const INSERT_ACCOUNTS = insertAccountsStatement(recordingEventsOf, FIRST_SENT_EVENT);
const INSERT_ACCOUNTS_DEFERRED = insertAccountsStatement(recordingEventsDeferredOf, DEFERRED_FAN_OUT);

/**
 * Inserts the accounts of one company in one statement with their v1.account.created events, and
 * returns the externalId and JSON of those inserted. A batch of more than INLINE_FAN_OUT_MAX_EVENTS
 * accounts leaves its events' fan-out to the workers (docs/decisions/events.md), decided by the
 * accounts it tries, since how many are new is known only once the statement has run.
 */
export async function insertAccounts(
  db: Queryable,
  companyId: string,
  accounts: readonly Omit<NewAccount, 'companyId'>[],
): Promise<InsertedAccount[]> {
  // The ids are drawn here: PGlite's gen_random_uuid() opens, reads and closes /dev/urandom for each
  // row, about 8 ms of a 1,000-row insert's 70 (docs/decisions/chart-of-accounts-v1.md, "Speed").
  const rows = accounts.map((account, position) => ({
    id: randomUUID(),
    external_id: account.externalId,
    name: account.name,
    archived: account.archived,
    code: account.code,
    tax_code_external_id: account.taxCodeExternalId,
    metadata: account.metadata,
    accounting_system: account.accountingSystem,
    position,
  }));
  const deferred = defersFanOut(accounts.length);
  const inserted = await db.query<InsertedAccount & { queued: string | null }>(
    deferred ? INSERT_ACCOUNTS_DEFERRED : INSERT_ACCOUNTS,
    [companyId, JSON.stringify(rows), sampledTraceparent()],
  );
  const queued = inserted[0]?.queued;
  if (deferred) wakeFanOutWorkers(db, queued);
  else wakeWorkers(db, queued);
  return inserted.map(({ externalId, json }) => ({ externalId, json }));
}

/** The company's accounts with any of these externalIds. */
export async function findAccountsByExternalIds(
  db: Queryable,
  companyId: string,
  externalIds: readonly string[],
): Promise<StoredAccount[]> {
  return db.query<StoredAccount>(
    `SELECT ${STORED_COLUMNS} FROM accounts WHERE company_id = $1 AND external_id = ANY($2::text[])`,
    [companyId, externalIds],
  );
}

export async function findAccountByExternalId(
  db: Queryable,
  companyId: string,
  externalId: string,
): Promise<StoredAccount | undefined> {
  const [row] = await db.query<StoredAccount>(
    `SELECT ${STORED_COLUMNS} FROM accounts WHERE company_id = $1 AND external_id = $2`,
    [companyId, externalId],
    { reusePlan: true },
  );
  return row;
}

/** The accounts with these ids as JSON, in the order of `ids` (undefined where there is none). */
export async function findAccountsByIds(db: Queryable, ids: readonly string[]): Promise<(AccountJson | undefined)[]> {
  const rows = await db.query<AccountJson>(`SELECT ${JSON_COLUMNS} FROM accounts WHERE id = ANY($1::uuid[])`, [ids], {
    reusePlan: true,
    quick: true,
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id));
}

/** The account, when the caller may see it; locked until the transaction ends with `forUpdate`. */
export async function findAccount(
  db: Queryable,
  id: string,
  companies: readonly string[],
  options: { forUpdate?: boolean } = {},
): Promise<AccountJson | undefined> {
  const [row] = await db.query<AccountJson>(
    `SELECT ${JSON_COLUMNS} FROM accounts WHERE id = $1 AND company_id = ANY($2::uuid[])${options.forUpdate ? ' FOR UPDATE' : ''}`,
    [id, companies],
  );
  return row;
}

/**
 * Whether the company has the account. With `keyShare` it then cannot be deleted before the
 * transaction ends (the lock a foreign key check takes), so a reference written meanwhile holds.
 */
export async function companyHasAccount(
  db: Queryable,
  companyId: string,
  id: string,
  options: { keyShare?: boolean } = {},
): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM accounts WHERE id = $1 AND company_id = $2${options.keyShare ? ' FOR KEY SHARE' : ''}`,
    [id, companyId],
  );
  return rows.length > 0;
}

export interface AccountChanges {
  name: string;
  archived: boolean;
  code: string | null;
  taxCodeExternalId: string | null;
  metadata: Record<string, unknown> | null;
}

export async function updateAccount(db: Queryable, id: string, changes: AccountChanges): Promise<AccountJson> {
  const [row] = await db.query<AccountJson>(
    `UPDATE accounts SET name = $2, archived = $3, code = $4, tax_code_external_id = $5, metadata = $6,
       updated_at = now()
     WHERE id = $1 RETURNING ${JSON_COLUMNS}`,
    [
      id,
      changes.name,
      changes.archived,
      changes.code,
      changes.taxCodeExternalId,
      changes.metadata === null ? null : JSON.stringify(changes.metadata),
    ],
  );
  if (!row) throw new Error(`account ${id} vanished inside its update transaction`);
  return row;
}

/** Deletes the account and answers its last state; undefined when there is none the caller may see. */
export async function deleteAccount(
  db: Queryable,
  id: string,
  companies: readonly string[],
): Promise<AccountJson | undefined> {
  const [row] = await db.query<AccountJson>(
    `DELETE FROM accounts WHERE id = $1 AND company_id = ANY($2::uuid[]) RETURNING ${JSON_COLUMNS}`,
    [id, companies],
  );
  return row;
}

export interface AccountFilters {
  companyId: string;
  /** Any of these ids; a null entry matches none. */
  ids: (string | null)[] | null;
  name: string | null;
  code: string | null;
  /** Any of these codes (v1). */
  codes: (string | null)[] | null;
  externalId: string | null;
  archived: boolean | null;
  /** Leave out the accounts contra accounts and bookkeeping categories use. */
  excludeIfAssignedToContraAccount: boolean;
  excludeIfAssignedToCategory: boolean;
}

export async function searchAccounts(db: Queryable, filters: AccountFilters, position: PagePosition): Promise<Page> {
  // ids, code and externalId pick accounts through their own keys; name and archived do not.
  const noKeyFilter = !filters.ids && !filters.codes && filters.code === null && filters.externalId === null;
  const onlyCompanyAndArchived = noKeyFilter && filters.name === null;
  const fewArchived =
    onlyCompanyAndArchived &&
    filters.archived === true &&
    (await hasFewArchived(db, filters.companyId, position.limit));
  const nameOnly = noKeyFilter && filters.name !== null;
  // Text with trigrams is found through the trigram index; other text in the company's own rows.
  const name = filters.name !== null && hasTrigram(filters.name) ? 'trigrams' : 'scan';
  const sizes = nameOnly ? await accountSizes(db, filters.companyId) : undefined;
  // A name search looks its company up in the name index too, unless the company is most of the table.
  const companyThroughIndex = !sizes || name === 'scan' || !sizes.holdsMost;
  return fetchPage(db, {
    // A whole company's accounts in index order: one plan serves every company and every page.
    reusePlan: onlyCompanyAndArchived && filters.archived === null,
    matchesFirst: (filters.name !== null && !nameOnly) || fewArchived,
    choosePlan: nameOnly
      ? {
          cap: Math.floor(Math.sqrt(position.limit * (sizes?.company ?? 0))) + 1,
          key: 'id',
          walkFilter: (params) => accountConditions(filters, params, { companyThroughIndex: true, name: 'scan' }),
          // Many matches: counted where the planner finds them cheapest, most often by testing the
          // company's folded names in their own index rather than each match's row.
          countFilter: (params) => accountConditions(filters, params, { companyThroughIndex: true, name }),
        }
      : undefined,
    json: SEARCH_ITEM_JSON,
    from: 'accounts',
    filter: (params) => accountConditions(filters, params, { companyThroughIndex, name }),
    columns: ACCOUNT_SORT_COLUMNS,
    ...position,
    totalSql: onlyCompanyAndArchived ? (params) => countedAccounts(filters, params) : undefined,
  });
}

/**
 * `text` case-folded for the name search: lower-cased by the ICU root collation ("C" folds ASCII
 * only), with the final sigma ς read as σ, which is what a Σ that ends the typed text becomes. The
 * accounts keep their names folded so in `name_folded` (migration 0037), compared byte-wise.
 */
function foldedText(text: string): string {
  return `translate(lower(${text}::text COLLATE "und-x-icu"), 'ς', 'σ') COLLATE "C"`;
}

/**
 * Whether the typed text holds three letters or digits in a row, which pg_trgm needs to find it
 * through the trigram index (its trigrams are taken from words); other text would read every entry.
 */
function hasTrigram(text: string): boolean {
  return /[\p{L}\p{N}]{3}/u.test(text);
}

/**
 * How the name condition is written: as the trigram index's term (`LIKE`), or as a test the index
 * cannot serve (`strpos`), for a walk of a sort index or a scan of the company's rows. Both ask
 * whether the folded name holds the folded text.
 */
type NameMatch = 'trigrams' | 'scan';

function accountConditions(
  filters: AccountFilters,
  params: SqlParams,
  { companyThroughIndex, name }: { companyThroughIndex: boolean; name: NameMatch },
): string[] {
  // Compared as text, the company is no index's term: a name search then reads the trigram lists alone.
  const company = companyThroughIndex ? 'company_id' : 'company_id::text';
  const conditions = [`${company} = ${params.add(filters.companyId)}`];
  if (filters.ids) conditions.push(`id = ANY(${params.add(filters.ids)}::uuid[])`);
  if (filters.name !== null) {
    conditions.push(
      name === 'trigrams'
        ? `name_folded LIKE ${foldedText(params.add(`%${escapeLike(filters.name)}%`))}`
        : `strpos(name_folded, ${foldedText(params.add(filters.name))}) > 0`,
    );
  }
  if (filters.code !== null) {
    // Written as the code indexes' terms so that they find the code, instead of a scan of every account.
    conditions.push(`code IS NOT NULL AND coalesce(code, '') = ${params.add(filters.code)}`);
  }
  if (filters.codes) conditions.push(`code = ANY(${params.add(filters.codes)}::text[])`);
  if (filters.externalId !== null) conditions.push(`external_id = ${params.add(filters.externalId)}`);
  if (filters.archived !== null) conditions.push(`archived = ${params.add(filters.archived)}`);
  conditions.push(...notAssignedConditions(filters, params));
  return conditions;
}

/**
 * Whether a company's archived accounts are few enough to be found all at once (through the index
 * of archived accounts) and sorted, rather than met while walking the company in sort order. With
 * n archived of N accounts, the first costs about n rows and the walk about limit·N/n rows until a
 * page is full: they cross at n² = limit·N (docs/decisions/pagination.md).
 */
async function hasFewArchived(db: Queryable, companyId: string, limit: number): Promise<boolean> {
  const [counts] = await db.query<{ archived: string; total: string }>(
    `SELECT coalesce(sum(n) FILTER (WHERE archived), 0) AS archived, coalesce(sum(n), 0) AS total
     FROM account_counts WHERE company_id = $1`,
    [companyId],
    { reusePlan: true },
  );
  const archived = Number(counts?.archived ?? 0);
  return archived * archived <= limit * Number(counts?.total ?? 0);
}

/** A company's accounts, as a name search chooses its plan by them. */
interface AccountSizes {
  company: number;
  /**
   * Whether the company holds at least half of all accounts, or the table's size is not known (PGlite
   * never analyzes on its own). Its name search then reads the name index's trigram lists alone: its
   * own entry there would be nearly as long as the table and only slow the scan down
   * (docs/decisions/pagination.md).
   */
  holdsMost: boolean;
}

async function accountSizes(db: Queryable, companyId: string): Promise<AccountSizes> {
  let answers = sizesOf.get(db);
  if (!answers) {
    answers = new LRUCache({ max: 10_000, ttl: SIZES_TTL_MS });
    sizesOf.set(db, answers);
  }
  const known = answers.get(companyId);
  if (known !== undefined) return known;
  const [sizes] = await db.query<{ company: string; table: number }>(
    `SELECT (SELECT coalesce(sum(n), 0) FROM account_counts WHERE company_id = $1) AS company,
       (SELECT reltuples FROM pg_class WHERE oid = 'accounts'::regclass) AS "table"`,
    [companyId],
    { reusePlan: true },
  );
  const company = Number(sizes?.company ?? 0);
  const answer = { company, holdsMost: !sizes || company * 2 >= sizes.table };
  answers.set(companyId, answer);
  return answer;
}

// A company's size changes slowly, and it only chooses a plan (the page and its total are exact
// whatever it says): each process asks once a minute per company rather than spend a statement on
// every name search.
const SIZES_TTL_MS = 60_000;
const sizesOf = new WeakMap<Queryable, LRUCache<string, AccountSizes>>();

/** The company's accounts the archived filter leaves, from the counters the accounts trigger keeps. */
function companyAccounts(filters: AccountFilters, params: SqlParams): string {
  const archived = filters.archived === null ? '' : ` AND archived = ${params.add(filters.archived)}`;
  return `SELECT coalesce(sum(n), 0) FROM account_counts WHERE company_id = ${params.add(filters.companyId)}${archived}`;
}

/**
 * The exact number of a company's accounts, from the counters the accounts trigger keeps, less the
 * few the filters leave out for being assigned, each looked up by its id (not joined with the company's).
 */
function countedAccounts(filters: AccountFilters, params: SqlParams): string {
  const counted = companyAccounts(filters, params);
  const excluded = excludedAccountIds(filters, params);
  if (!excluded) return counted;
  const archived = filters.archived === null ? '' : ` AND archived = ${params.add(filters.archived)}`;
  // The listed accounts are the company's (their references are checked on write): only the
  // archived filter needs to read them.
  const left = archived
    ? `SELECT count(*) FROM accounts WHERE id = ANY (${excluded})${archived}`
    : `SELECT count(DISTINCT listed) FROM unnest(${excluded}) AS listed`;
  return `(${counted}) - (${left})`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
