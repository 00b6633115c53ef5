// What may hold an account, so that its delete can name what uses it (docs/decisions/bookkeeping.md).
// Each table here references accounts (id) with a foreign key ON DELETE RESTRICT and has an index
// on account_id; a table that starts referencing accounts is added here.
import type { Queryable } from '../db/database.ts';

const REFERENCES = [
  { resource: 'accounting-entries', table: 'accounting_entries', words: 'accounting entries' },
  { resource: 'bookkeeping-categories', table: 'bookkeeping_categories', words: 'bookkeeping categories' },
  { resource: 'contra-accounts', table: 'contra_accounts', words: 'contra accounts' },
] as const;

/** How many ids of each kind a refused delete names. */
export const NAMED_USERS = 10;

export interface AccountUsers {
  resource: (typeof REFERENCES)[number]['resource'];
  ids: string[];
}

/** Each kind of record that references the account, with up to NAMED_USERS of their ids; none: nothing does. */
export async function findAccountUsers(db: Queryable, accountId: string): Promise<AccountUsers[]> {
  const rows = await db.query<AccountUsers>(
    REFERENCES.map(
      ({ resource, table }) =>
        `SELECT '${resource}' AS resource, ARRAY(SELECT id FROM ${table} WHERE account_id = $1 ORDER BY id LIMIT ${NAMED_USERS})::text[] AS ids`,
    ).join(' UNION ALL '),
    [accountId],
  );
  return rows.filter((row) => row.ids.length > 0);
}

/** "accounting entries and bookkeeping categories (ids…)": what uses the account, in words. */
export function describeAccountUsers(users: readonly AccountUsers[]): string {
  return users
    .map(({ resource, ids }) => {
      const words = REFERENCES.find((reference) => reference.resource === resource)?.words ?? resource;
      return `${words} (${ids.join(', ')}${ids.length === NAMED_USERS ? ', …' : ''})`;
    })
    .join(' and ');
}
