// An experiment, not a suite: what counting inserted accounts costs a single-row insert (a create),
// per row (migration 0001's trigger) against per statement (0023's), and with no counting at all.
// Each round runs 1,000 single-row INSERT statements in a server-side loop under each trigger in
// turn, in one process on one database; the medians say how each compares within the same minutes.
//   node bench/count-trigger-ab.ts [rounds]                     PGlite, in memory
//   TEST_DATABASE_URL=postgres://… node bench/count-trigger-ab.ts   PostgreSQL, in a schema of its own
import { randomUUID } from 'node:crypto';
import { openTestDatabase } from '../test/support/database.ts';

// Migrated, and dropped again on close.
const db = await openTestDatabase();
const NONE =
  'DROP TRIGGER IF EXISTS accounts_count_inserts ON accounts; DROP TRIGGER IF EXISTS accounts_count ON accounts;';
const PER_ROW = `${NONE}
  CREATE TRIGGER accounts_count AFTER INSERT OR DELETE OR UPDATE OF archived ON accounts FOR EACH ROW EXECUTE FUNCTION account_counts_track();`;
const PER_STATEMENT = `${NONE}
  CREATE TRIGGER accounts_count AFTER DELETE OR UPDATE OF archived ON accounts FOR EACH ROW EXECUTE FUNCTION account_counts_track();
  CREATE TRIGGER accounts_count_inserts AFTER INSERT ON accounts REFERENCING NEW TABLE AS inserted_accounts FOR EACH STATEMENT EXECUTE FUNCTION account_counts_track_inserts();`;
const loop = () => `DO $$ BEGIN FOR i IN 1..1000 LOOP
  INSERT INTO accounts (company_id, external_id, name, archived, code, metadata) VALUES ('${randomUUID()}', 'x' || i, 'Account ' || i, false, i::text, '{"erp":{"n":1}}');
  END LOOP; END $$`;
const results: Record<string, number[]> = { row: [], statement: [], none: [] };
const rounds = Number(process.argv[2] ?? 16);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? ['statement', 'none', 'row'] : ['row', 'none', 'statement'];
  for (const side of order) {
    await db.exec(side === 'row' ? PER_ROW : side === 'statement' ? PER_STATEMENT : NONE);
    const s = performance.now();
    await db.exec(loop());
    results[side]!.push(performance.now() - s);
  }
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
for (const [k, v] of Object.entries(results))
  console.log(
    `${process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite'} ${k.padEnd(10)} µs per insert: median ${median(v).toFixed(0)}; all ${v.map((x) => x.toFixed(0)).join(' ')}`,
  );
await db.close();
