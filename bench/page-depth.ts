// Whether depth costs a cursor page anything: the last page's rate against the first page's (no
// cursor) and against the second's (a cursor at no depth), round by round. The second tells the
// cursor's own constant cost from the cost of depth.
import type { DatabaseFigures } from './accounts-suite.ts';
import { FIRST_PAGE, LAST_PAGE, SECOND_PAGE } from './scenarios.ts';

export function describePageDepth({ db, scenarios }: DatabaseFigures): string {
  const rounds = (name: string) => scenarios.find((s) => s.scenario === name)?.rounds.map((r) => r.rps) ?? [];
  const [first, second, last] = [rounds(FIRST_PAGE), rounds(SECOND_PAGE), rounds(LAST_PAGE)];
  const ratios = (base: number[]) => last.map((rps, i) => (rps / (base[i] ?? Number.NaN)).toFixed(2)).join(', ');
  return (
    `last page on ${db}, round by round: against the first page ${ratios(first)}; ` +
    `against the second page (cursor) ${ratios(second)}`
  );
}
