// Get-by-id batching (src/accounts/account-loader.ts), against a database whose answers the test
// releases: the lookups of one turn share a statement, each caller gets its own row, and a failed
// statement fails only its own lookups.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { loadAccount } from '../../src/accounts/account-loader.ts';
import type { Database, Queryable } from '../../src/db/database.ts';

interface Statement {
  ids: string[];
  answer(): void;
  fail(error: Error): void;
}

/** A database holding `known` accounts, whose statements wait until the test answers them. */
function heldDatabase(known: string[]) {
  const statements: Statement[] = [];
  const db: Queryable & Pick<Database, 'afterPendingIo'> = {
    query: (_sql, params) =>
      new Promise((resolve, reject) => {
        const ids = (params?.[0] as string[]) ?? [];
        const rows = ids
          .filter((id) => known.includes(id))
          .map((id) => ({ id, companyId: 'c', name: `account ${id}` }));
        statements.push({ ids, answer: () => resolve(rows as never[]), fail: reject });
      }),
    exec: async () => {},
    notifyAfterCommit: () => {},
    afterPendingIo: (work) => void setImmediate(work),
  };
  return { db, statements };
}

describe('get-by-id batching', () => {
  it('answers the lookups of one turn with one statement, each with its own row', async () => {
    const [a, b, missing] = [randomUUID(), randomUUID(), randomUUID()];
    const { db, statements } = heldDatabase([a, b]);
    const results = Promise.all([loadAccount(db, a), loadAccount(db, b.toUpperCase()), loadAccount(db, missing)]);
    await nextTurn();
    assert.equal(statements.length, 1);
    assert.deepEqual(statements[0]?.ids, [a, b, missing]);
    statements[0]?.answer();
    const [rowA, rowB, none] = await results;
    assert.equal(rowA?.id, a);
    assert.equal(rowB?.id, b);
    assert.equal(none, undefined);
  });

  it('fails only the lookups of a failed statement', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    const { db, statements } = heldDatabase([a, b]);
    const first = loadAccount(db, a);
    await nextTurn();
    const second = loadAccount(db, b);
    await nextTurn();
    assert.equal(statements.length, 2);
    statements[0]?.fail(new Error('connection lost'));
    await assert.rejects(first, /connection lost/);
    statements[1]?.answer();
    assert.equal((await second)?.id, b);
  });
});
