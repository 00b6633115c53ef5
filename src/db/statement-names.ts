// Named prepared statements for node-postgres. A parameterized query sent with a name is parsed and
// planned once per connection and then only bound and executed, which saves the server the parse and
// plan of every call (get-by-id: PostgreSQL CPU per request 46 → 37 µs; `git show 6d471bc:docs/performance.md`).
// Names are given per SQL text, in order of first use; past `limit` texts, queries go unnamed, so
// that SQL built from user input could never grow the server's statement cache without bound.

export interface StatementNames {
  /** The name for `sql`, or undefined once `limit` texts have names. */
  nameOf(sql: string): string | undefined;
}

export function createStatementNames(limit = 500): StatementNames {
  const names = new Map<string, string>();
  return {
    nameOf(sql) {
      const known = names.get(sql);
      if (known !== undefined || names.size >= limit) return known;
      const name = `ledgerhook_${names.size + 1}`;
      names.set(sql, name);
      return name;
    },
  };
}
