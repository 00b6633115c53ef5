// The search suite (`BENCH_SUITE=search`): the name search beside a first page of the same company.
// Small: 20,000 accounts in one company, a quarter of them with "zephyr" in their names, scattered
// through the name order; a first page and the name search alternate in rounds at 50 connections,
// and the search's rate is read as a share of the first page's in the same round. Large (unless
// BENCH_SEARCH_LARGE=0): 1,000,000 accounts, 1 % with "zephyr", the search's p99 at 10 connections.

import { type DatabaseKind, prepare } from './databases.ts';
import { type LoadResult, runLoad } from './load.ts';
import { median } from './median.ts';
import { startService } from './processes.ts';
import { userToken } from './scenarios.ts';

export interface SearchSuiteSettings {
  databases: DatabaseKind[];
  adminUrl: string;
  secret: string;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  large: boolean;
}

export interface SearchFigures {
  db: DatabaseKind;
  /** Each round's first page and name search at 50 connections (20,000 accounts, a quarter match). */
  small: { firstPage: LoadResult; search: LoadResult; share: number }[];
  /** The name search at 10 connections over 1,000,000 accounts of which 1 % match, each round. */
  large: { firstPage: LoadResult; search: LoadResult }[];
}

/** The text searched: in no seeded name but those given it. */
export const SEARCH_TEXT = 'zephyr';

export async function runSearchSuite(
  settings: SearchSuiteSettings,
  log: (line: string) => void,
): Promise<SearchFigures[]> {
  const figures: SearchFigures[] = [];
  for (const db of settings.databases) {
    const small = await timeSearch(db, { accounts: 20_000, every: 4, connections: 50 }, settings, log);
    const large = settings.large
      ? await timeSearch(db, { accounts: 1_000_000, every: 100, connections: 10 }, settings, log)
      : [];
    figures.push({
      db,
      small: small.map((round) => ({ ...round, share: round.search.rps / round.firstPage.rps })),
      large,
    });
  }
  return figures;
}

async function timeSearch(
  kind: DatabaseKind,
  shape: { accounts: number; every: number; connections: number },
  settings: SearchSuiteSettings,
  log: (line: string) => void,
): Promise<{ firstPage: LoadResult; search: LoadResult }[]> {
  // Every `every`-th account (by its number, unrelated to the name order and scattered through the
  // table as real renames and creates over time would be) gets the text.
  const target = await prepare(kind, {
    accounts: shape.accounts,
    adminUrl: settings.adminUrl,
    log,
    marked: { every: shape.every, text: SEARCH_TEXT },
  });
  const service = await startService({
    ...target.env,
    AUTH_JWT_SECRET: settings.secret,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_MAX: String(2 ** 31),
  });
  const rounds: { firstPage: LoadResult; search: LoadResult }[] = [];
  try {
    const headers = {
      authorization: `Bearer ${await userToken(settings.secret, target.companyId)}`,
      'content-type': 'application/json',
    };
    const request = (body: unknown) => [
      { method: 'POST' as const, path: '/v1-beta/accounts:search?limit=100', headers, body: JSON.stringify(body) },
    ];
    const firstPage = request({ companyId: target.companyId });
    const search = request({ companyId: target.companyId, name: SEARCH_TEXT });
    const answer = await fetch(`${service.url}${search[0]?.path}`, { method: 'POST', headers, body: search[0]?.body });
    const total = ((await answer.json()) as { pagination: { total: number } }).pagination.total;
    log(`${kind}: ${shape.accounts.toLocaleString('en')} accounts, "${SEARCH_TEXT}" matches ${total}`);
    const time = async (name: string, requests: typeof search, warmupSeconds: number) => {
      const result = await runLoad({
        url: service.url,
        requests,
        connections: shape.connections,
        seconds: settings.seconds,
        warmupSeconds,
      });
      if (result.failures > 0) throw new Error(`${kind}: ${name}: ${result.failures} failures`);
      log(
        `${kind}: ${name}: ${Math.round(result.rps)} rps, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms`,
      );
      return result;
    };
    for (let round = 1; round <= settings.rounds; round++) {
      const warmup = round === 1 ? settings.warmupSeconds : 1;
      const first = await time('first page', firstPage, warmup);
      const named = await time(`name contains "${SEARCH_TEXT}"`, search, warmup);
      rounds.push({ firstPage: first, search: named });
    }
  } finally {
    await service.stop();
    await target.cleanup();
  }
  return rounds;
}

export function formatSearchTable(figures: SearchFigures[]): string {
  const lines = [
    '| database | accounts (matching) | connections | first page rps | search rps | search / first page | search p50 ms | search p99 ms |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const { db, small, large } of figures) {
    const row = (label: string, connections: number, rounds: { firstPage: LoadResult; search: LoadResult }[]) => {
      if (rounds.length === 0) return;
      const pick = (f: (r: { firstPage: LoadResult; search: LoadResult }) => number) => median(rounds.map(f));
      lines.push(
        `| ${db} | ${label} | ${connections} | ${Math.round(pick((r) => r.firstPage.rps))} | ${Math.round(pick((r) => r.search.rps))} | ` +
          `${(100 * pick((r) => r.search.rps / r.firstPage.rps)).toFixed(1)} % (rounds: ${rounds.map((r) => `${((100 * r.search.rps) / r.firstPage.rps).toFixed(1)}`).join(', ')}) | ` +
          `${pick((r) => r.search.p50Ms).toFixed(2)} | ${pick((r) => r.search.p99Ms).toFixed(2)} (rounds: ${rounds.map((r) => r.search.p99Ms.toFixed(1)).join(', ')}) |`,
      );
    };
    row('20,000 (25 %)', 50, small);
    row('1,000,000 (1 %)', 10, large);
  }
  return lines.join('\n');
}
