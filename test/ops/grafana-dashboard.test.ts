// docs/grafana-dashboard.json (docs/operations.md, "Metrics"): a dashboard Grafana imports, on a
// Prometheus data source chosen at import, whose every query names metrics /metrics serves.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.ts';

const dashboard = JSON.parse(readFileSync(new URL('../../docs/grafana-dashboard.json', import.meta.url), 'utf8'));

// Grafana's reference to the dashboard's data source variable, not a template literal.
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's syntax
const CHOSEN_SOURCE = '${datasource}';

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { refId: string; expr: string; datasource: { uid: string } }[];
}
const panels: Panel[] = dashboard.panels;
const queried = panels.filter((panel) => panel.type !== 'row');
const expressions = [
  ...queried.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr)),
  // A variable's label_values(metric, label) reads its metric.
  ...dashboard.templating.list
    .filter((v: { type: string }) => v.type === 'query')
    .map((v: { definition: string }) => v.definition.replace(/^label_values\((\w+),.*$/, '$1')),
];

/**
 * The metric names an expression reads: its identifiers outside label matchers, ranges and
 * groupings (`by (le, outcome)`), less functions (followed by a parenthesis).
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without)\s*\([^)]*\)/g, ' ');
  return [...bare.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter((match) => match[2] === undefined)
    .map((match) => match[1] as string);
}

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

describe('docs/grafana-dashboard.json', () => {
  it('is a dashboard on a Prometheus data source chosen at import', () => {
    assert.equal(typeof dashboard.title, 'string');
    assert.equal(typeof dashboard.uid, 'string');
    assert.ok(dashboard.schemaVersion >= 36);
    const source = dashboard.templating.list.find((v: { name: string }) => v.name === 'datasource');
    assert.deepEqual([source?.type, source?.query], ['datasource', 'prometheus']);
    const ids = panels.map((panel) => panel.id);
    assert.equal(new Set(ids).size, ids.length, 'panel ids are unique');
    for (const panel of queried) {
      assert.deepEqual(panel.datasource, { type: 'prometheus', uid: CHOSEN_SOURCE }, panel.title);
      assert.ok(panel.targets && panel.targets.length > 0, `${panel.title} has queries`);
      for (const target of panel.targets) assert.equal(target.datasource.uid, CHOSEN_SOURCE, panel.title);
      const { x, w } = panel.gridPos;
      assert.ok(x >= 0 && x + w <= 24, `${panel.title} fits the 24 columns`);
    }
  });

  it('has p50 and p99 panels for both latency histograms by outcome', () => {
    for (const histogram of ['first_attempt_delay_seconds', 'attempt_duration_seconds']) {
      for (const quantile of ['0.5', '0.99']) {
        assert.ok(
          expressions.some(
            (expr) =>
              expr.startsWith(`histogram_quantile(${quantile}, sum by (le, outcome)`) &&
              expr.includes(`ledgerhook_webhook_${histogram}_bucket`),
          ),
          `${histogram} at ${quantile}`,
        );
      }
    }
  });

  it('queries only metrics /metrics serves', async () => {
    // Request durations are served once a request has been answered.
    await t.request('GET', '/health/live');
    const served = new Set(
      (await t.request('GET', '/metrics')).text
        .split('\n')
        .filter((line) => line && !line.startsWith('#'))
        .map((line) => line.split(/[{ ]/)[0]),
    );
    const names = new Set(expressions.flatMap(metricNames));
    assert.ok(names.size >= 10, `found ${[...names].join(', ')}`);
    const missing = [...names].filter((name) => !served.has(name));
    assert.deepEqual(missing, [], 'every metric the dashboard queries is in /metrics');
  });
});
