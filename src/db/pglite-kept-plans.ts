// Statements that keep their plan, on PGlite. PGlite's `query` parses, describes and plans every
// statement on each call, in five calls into the WASM module. A statement whose best plan is the
// same for every value (QueryOptions.reusePlan) is instead prepared once under a name and then
// only bound and executed with a generic plan, in one call: an accounts page 1.42 → 0.63 ms,
// a primary-key lookup 121 → 70 µs (docs/decisions/query-plans.md).
import { type PGlite, parse, protocol } from '@electric-sql/pglite';
import { createStatementNames } from './statement-names.ts';

const { serialize } = protocol;

// PostgreSQL reads plan_cache_mode when a statement is bound, and the session's default plans every
// call for its values, as every other statement needs. A kept-plan call switches the session to
// generic plans in the same implicit transaction as its statement, so a failing statement rolls the
// switch back with it; the session then stays keeping plans until a statement that needs planning
// asks for the switch back (`planEachCall`). Switching around every call would cost 13–16 µs of
// each kept-plan call (docs/decisions/query-plans.md).
const KEEP_PLANS = [
  serialize.parse({ text: 'SET plan_cache_mode = force_generic_plan' }),
  serialize.bind({}),
  serialize.execute({}),
];
const PLAN_EACH_CALL = Buffer.concat([
  serialize.parse({ text: 'RESET plan_cache_mode' }),
  serialize.bind({}),
  serialize.execute({}),
  serialize.sync(),
]);

export interface KeptPlans {
  /**
   * Runs `sql` with a kept plan and answers its rows, or undefined when no more statements can be
   * named (the caller then runs it the usual way). The caller holds PGlite's locks, outside any
   * transaction.
   */
  run<Row>(sql: string, params: readonly unknown[]): Promise<Row[]> | undefined;
  /**
   * Puts the session back to planning each call for its values, if a kept-plan call left it keeping
   * plans: before any statement with parameters that is not run here. The caller holds PGlite's
   * locks, or otherwise keeps every other statement from running until its own statement has.
   */
  planEachCall(): Promise<void>;
}

export function createKeptPlans(pg: PGlite): KeptPlans {
  const names = createStatementNames();
  // The parameter types of each prepared statement, which choose how a value is written.
  const parameterTypes = new Map<string, number[]>();
  let keepingPlans = false;

  async function prepare(name: string, sql: string): Promise<number[]> {
    const known = parameterTypes.get(name);
    if (known) return known;
    const { messages } = await pg.execProtocol(
      Buffer.concat([serialize.parse({ name, text: sql }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const types = parse.parseDescribeStatementResults(messages);
    parameterTypes.set(name, types);
    return types;
  }

  async function execute<Row>(name: string, sql: string, params: readonly unknown[]) {
    const types = await prepare(name, sql);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const write = pg.serializers[types[i] ?? 0];
      return write ? write(value) : String(value);
    });
    const switching = !keepingPlans;
    const { messages } = await pg.execProtocol(
      Buffer.concat([
        ...(switching ? KEEP_PLANS : []),
        serialize.bind({ statement: name, values }),
        serialize.describe({ type: 'P' }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      // As PGlite's own query does after a statement outside a transaction.
      { syncToFs: true },
    );
    // Committed with the statement: a failure has thrown above, and rolled the switch back.
    keepingPlans = true;
    // One result per statement: the SET when switching, then this statement.
    const result = parse.parseResults(messages, pg.parsers)[switching ? 1 : 0];
    return (result?.rows ?? []) as Row[];
  }

  return {
    run(sql, params) {
      const name = names.nameOf(sql);
      return name === undefined ? undefined : execute(name, sql, params);
    },
    async planEachCall() {
      if (!keepingPlans) return;
      await pg.execProtocol(PLAN_EACH_CALL, { syncToFs: false });
      keepingPlans = false;
    },
  };
}
