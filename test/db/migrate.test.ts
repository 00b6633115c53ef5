import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Database } from '../../src/db/database.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite-database.ts';
import { openPostgres } from '../../src/db/postgres-database.ts';
import { openTestDatabase, TEST_DATABASE_URL } from '../support/database.ts';

describe('migrations', () => {
  it('are numbered, named verb_object, and applied once each', async () => {
    const names = listMigrations().map((m) => m.name);
    assert.ok(names.length >= 3);
    names.forEach((name, i) => {
      assert.match(name, /^\d{4}_[a-z0-9_]+$/);
      assert.equal(Number(name.slice(0, 4)), i + 1, `${name} breaks the numbering`);
    });
    const db = await openTestDatabase();
    try {
      assert.deepEqual(await migrate(db), [], 'a second run applies nothing');
      const ledger = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      assert.deepEqual(
        ledger.map((row) => row.name),
        names,
      );
    } finally {
      await db.close();
    }
  });

  it('are applied exactly once when several processes start at once', async () => {
    // PostgreSQL: four pools, as four processes would have. PGlite serves one process, so there the
    // four runs race on one handle.
    const { handles, close } = await openUnmigrated(4);
    try {
      const applied = await Promise.all(handles.map((db) => migrate(db)));
      assert.deepEqual(
        applied.flat().sort(),
        listMigrations().map((m) => m.name),
      );
    } finally {
      await close();
    }
  });

  it("fill each existing account's JSON when 0014 adds it, as the API shows the account", async () => {
    const { db, close } = await openMigratedUpTo('0014');
    try {
      const company = '6f1c1c8e-0d3a-4f3e-9d7e-1a2b3c4d5e6f';
      await db.query(
        `INSERT INTO accounts (company_id, external_id, name, archived, code, metadata, accounting_system)
         VALUES ($1, 'a', 'Cash "petty"', false, NULL, NULL, 'xero'), ($1, 'b', 'Bank', true, '512', $2, NULL)`,
        [company, JSON.stringify({ erp: { id: 7 }, note: 'é' })],
      );
      assert.deepEqual(await migrate(db, migrationsBefore('0015')), ['0014_keep_each_accounts_json']);
      const rows = await db.query<{ id: string; api_json: string }>(
        'SELECT id, api_json FROM accounts ORDER BY external_id',
      );
      const account = { companyId: company, taxCodeExternalId: null };
      assert.deepEqual(
        rows.map((row) => JSON.parse(row.api_json)),
        [
          {
            ...account,
            id: rows[0]?.id,
            externalId: 'a',
            name: 'Cash "petty"',
            archived: false,
            code: null,
            metadata: null,
          },
          {
            ...account,
            id: rows[1]?.id,
            externalId: 'b',
            name: 'Bank',
            archived: true,
            code: '512',
            metadata: { erp: { id: 7 }, note: 'é' },
          },
        ],
      );
    } finally {
      await close();
    }
  });

  it("count each company's existing accounting entries when 0015 adds the counters, and every entry after", async () => {
    const { db, close } = await openMigratedUpTo('0015');
    try {
      const [one, two] = ['0b6f0e4e-9a55-4b1e-8f3a-2c1d0e9f8a71', '5d2c7a10-3e4b-4c6d-9f8e-7a6b5c4d3e2f'];
      const accounts = await db.query<{ id: string; company_id: string }>(
        `INSERT INTO accounts (company_id, external_id, name, archived)
         VALUES ($1, 'cash', 'Cash', false), ($2, 'cash', 'Cash', false) RETURNING id, company_id`,
        [one, two],
      );
      const addEntries = (company: string, count: number) =>
        db.query<{ id: string }>(
          `INSERT INTO accounting_entries (company_id, account_id, amount, currency, date)
           SELECT company_id, id, 1, 'EUR', '2026-01-01' FROM accounts, generate_series(1, $2::int)
           WHERE company_id = $1 RETURNING id`,
          [company, count],
        );
      await addEntries(one, 3);
      await addEntries(two, 1);
      assert.equal(accounts.length, 2);
      assert.deepEqual(await migrate(db, migrationsBefore('0016')), ['0015_count_accounting_entries_per_company']);
      const counted = async () =>
        Object.fromEntries(
          (
            await db.query<{ company_id: string; n: number }>(
              'SELECT company_id, sum(n)::int AS n FROM accounting_entry_counts GROUP BY company_id',
            )
          ).map((row) => [row.company_id, row.n]),
        );
      assert.deepEqual(await counted(), { [one]: 3, [two]: 1 });
      const [added] = await addEntries(two, 2);
      await db.query('DELETE FROM accounting_entries WHERE id = $1', [added?.id]);
      await db.query(
        'DELETE FROM accounting_entries WHERE id IN (SELECT id FROM accounting_entries WHERE company_id = $1 LIMIT 2)',
        [one],
      );
      assert.deepEqual(await counted(), { [one]: 1, [two]: 2 });
    } finally {
      await close();
    }
  });

  it('keep the account counts when 0023 counts inserts per statement, and count every change after', async () => {
    const { db, close } = await openMigratedUpTo('0023');
    try {
      const company = '3f1e2d4c-5b6a-4798-8a9b-0c1d2e3f4a5b';
      const insert = (prefix: string, count: number, archivedEvery: number) =>
        db.query<{ id: string }>(
          `INSERT INTO accounts (company_id, external_id, name, archived)
           SELECT $1, $2 || i, 'Account ' || i, i % $4 = 0 FROM generate_series(1, $3::int) AS i RETURNING id`,
          [company, prefix, count, archivedEvery],
        );
      await insert('before-', 10, 5);
      assert.deepEqual(await migrate(db, migrationsBefore('0024')), ['0023_count_inserted_accounts_per_statement']);
      const counted = async () =>
        (
          await db.query<{ archived: boolean; n: number }>(
            'SELECT archived, sum(n)::int AS n FROM account_counts WHERE company_id = $1 GROUP BY archived ORDER BY archived',
            [company],
          )
        ).map((row) => [row.archived, row.n]);
      assert.deepEqual(await counted(), [
        [false, 8],
        [true, 2],
      ]);
      const [first, second] = await insert('after-', 30, 3);
      await db.query('UPDATE accounts SET archived = true WHERE id = $1', [first?.id]);
      await db.query('DELETE FROM accounts WHERE id = $1', [second?.id]);
      // An insert that inserts nothing counts nothing.
      await db.query(
        `INSERT INTO accounts (company_id, external_id, name, archived) VALUES ($1, 'after-3', 'Again', false)
         ON CONFLICT (company_id, external_id) DO NOTHING`,
        [company],
      );
      assert.deepEqual(await counted(), [
        [false, 8 + 20 - 2],
        [true, 2 + 10 + 1],
      ]);
    } finally {
      await close();
    }
  });
});

/** The migrations numbered before `number`. */
function migrationsBefore(number: string) {
  return listMigrations().filter((m) => m.name < number);
}

/** A new database with the migrations before `number` applied: what an older version left. */
async function openMigratedUpTo(number: string): Promise<{ db: Database; close(): Promise<void> }> {
  const {
    handles: [db],
    close,
  } = await openUnmigrated(1);
  assert.ok(db);
  await migrate(db, migrationsBefore(number));
  return { db, close };
}

/**
 * `count` handles on one new database without any migration, as `count` processes would hold: pools
 * on a schema of their own on PostgreSQL; on PGlite, which serves one process, one handle shared.
 */
async function openUnmigrated(count: number): Promise<{ handles: Database[]; close(): Promise<void> }> {
  if (!TEST_DATABASE_URL) {
    const db = await openPglite('memory');
    return { handles: Array(count).fill(db), close: () => db.close() };
  }
  const url = TEST_DATABASE_URL;
  const schema = `test_${randomBytes(6).toString('hex')}`;
  const handles = await Promise.all(Array.from({ length: count }, () => openPostgres(url, { schema })));
  return {
    handles,
    close: async () => {
      await handles[0]?.query(`DROP SCHEMA ${schema} CASCADE`);
      await Promise.all(handles.map((db) => db.close()));
    },
  };
}
