// A statement's executed plan (EXPLAIN (ANALYZE, FORMAT JSON)), for the tests that hold a statement
// to what it reads. PGlite answers the plan as text, PostgreSQL as JSON.
import assert from 'node:assert/strict';
import type { Queryable } from '../../src/db/database.ts';

/** The fields of a plan node the tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Index Cond'?: string;
  'Index Name'?: string;
  Filter?: string;
  'Heap Fetches'?: number;
  Plans?: PlanNode[];
}

/** Runs `sql` under EXPLAIN ANALYZE on `on` and answers its plan's top node. */
export async function explainAnalyzed(on: Queryable, sql: string, params?: readonly unknown[]): Promise<PlanNode> {
  const [row] = await on.query<{ 'QUERY PLAN': { Plan: PlanNode }[] | string }>(
    `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
    params,
  );
  const plan = row?.['QUERY PLAN'];
  const [explained] = typeof plan === 'string' ? (JSON.parse(plan) as { Plan: PlanNode }[]) : (plan ?? []);
  assert.ok(explained, 'EXPLAIN answered a plan');
  return explained.Plan;
}
