// The figures of a run: a console table, each rate beside the bare server's, and the same as JSON.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { LoadResult } from './load.ts';

export interface Figure extends LoadResult {
  scenario: string;
  /** `postgres`, `pglite`, or `-` for the bare server. */
  db: string;
  /** rps / the bare server's rps. */
  ratioToBare: number;
}

export function toFigure(scenario: string, db: string, result: LoadResult, bare: LoadResult): Figure {
  return { scenario, db, ...result, ratioToBare: result.rps / bare.rps };
}

export function formatTable(figures: Figure[]): string {
  const header = ['scenario', 'db', 'rps', 'p50 ms', 'p99 ms', 'ratio to bare', 'failed', 'I/O stall'];
  const rows = figures.map((f) => [
    f.scenario,
    f.db,
    Math.round(f.rps).toLocaleString('en'),
    f.p50Ms.toFixed(2),
    f.p99Ms.toFixed(2),
    `${(f.ratioToBare * 100).toFixed(1)} %`,
    String(f.failures),
    f.ioStallPercent === undefined ? '-' : `${f.ioStallPercent.toFixed(0)} %`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i >= 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (i >= 2 ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

export function writeJson(file: URL, content: unknown): void {
  mkdirSync(new URL('./', file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
}
