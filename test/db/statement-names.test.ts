// Statement names for node-postgres: one per SQL text, stable, and none past the limit.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStatementNames } from '../../src/db/statement-names.ts';

describe('statement names', () => {
  it('names each SQL text once and gives the same text the same name', () => {
    const names = createStatementNames();
    const a = names.nameOf('SELECT 1 WHERE $1');
    const b = names.nameOf('SELECT 2 WHERE $1');
    assert.ok(a && b);
    assert.notEqual(a, b);
    assert.equal(names.nameOf('SELECT 1 WHERE $1'), a);
  });

  it('leaves texts past the limit unnamed, and keeps the names given', () => {
    const names = createStatementNames(2);
    const first = names.nameOf('q1');
    names.nameOf('q2');
    assert.equal(names.nameOf('q3'), undefined);
    assert.equal(names.nameOf('q1'), first);
  });
});
