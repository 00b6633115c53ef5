// What the bench asks the service, as autocannon request sequences. The cursors of the middle and
// last pages are obtained once through offset (itself O(n)); only the `after=<cursor>` request is
// timed, which is how a client walking the pages reaches them.
import { randomUUID } from 'node:crypto';
import { mintToken } from '../src/auth/mint-token.ts';
import type { LoadRequest } from './load.ts';
import { pageWalk } from './page-walk.ts';
import { NAME_SEARCH } from './seed-accounts.ts';

export interface Scenario {
  name: string;
  requests: LoadRequest[];
  /** Timed between two runs of the bare server: the scenario whose ratio to it is a target. */
  besideBare?: boolean;
  /** Writes: timed once, after the rounds of the reads, so that the searches see the seeded rows only. */
  once?: boolean;
}

export interface ScenarioContext {
  url: string;
  token: string;
  companyId: string;
  sampleIds: string[];
  /** A smaller company in the same table, with a token of its own. */
  neighbour: { companyId: string; token: string; accounts: number };
}

const SEARCH = '/v1-beta/accounts:search';
const PAGE = 100;
export const FIRST_PAGE = 'search: first page';
export const SECOND_PAGE = 'search: second page (cursor)';
export const LAST_PAGE = 'search: last page (cursor)';
/** Where the page walkers start besides the first page, as fractions of the company's accounts. */
const WALK_DEPTHS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/** Scenarios in the order they run in each round. */
export async function buildScenarios(context: ScenarioContext): Promise<Scenario[]> {
  const auth = { authorization: `Bearer ${context.token}` };
  const headers = { ...auth, 'content-type': 'application/json' };
  const api = (path: string, body?: unknown) => call(context.url, headers, path, body);
  const searchBody = JSON.stringify({ companyId: context.companyId });
  const search = (query: string, body = searchBody): LoadRequest => ({
    method: 'POST',
    path: `${SEARCH}?${query}`,
    headers,
    body,
  });

  const first = await api(`${SEARCH}?limit=${PAGE}`, { companyId: context.companyId });
  const total: number = first.pagination.total;
  const cursorAt = async (offset: number): Promise<string> =>
    (await api(`${SEARCH}?limit=1&offset=${offset}`, { companyId: context.companyId })).pagination.endCursor;
  // The page after row n-1 holds rows n…n+99: the middle page starts at total/2, the last at total-100.
  const middleCursor = await cursorAt(Math.floor(total / 2) - 1);
  const lastCursor = await cursorAt(Math.max(0, total - PAGE - 1));
  const walkStarts = [
    undefined,
    ...(await Promise.all(WALK_DEPTHS.map((depth) => cursorAt(Math.floor(total * depth) - 1)))),
  ];
  // The first page's own endCursor: a cursor page at no depth, which tells the cursor's constant
  // cost (decoding it, the boundary in the statement) from the cost of depth.
  const second = `limit=${PAGE}&after=${first.pagination.endCursor}`;
  const middle = `limit=${PAGE}&after=${middleCursor}`;
  const last = `limit=${PAGE}&after=${lastCursor}`;
  await expectPage(api, second, context.companyId, { hasNextPage: true });
  await expectPage(api, middle, context.companyId, { hasNextPage: true });
  await expectPage(api, last, context.companyId, { hasNextPage: false });
  const nameBody = JSON.stringify({ companyId: context.companyId, name: NAME_SEARCH });
  const named = await api(`${SEARCH}?limit=${PAGE}`, JSON.parse(nameBody));
  if (named.data.length === 0) throw new Error(`no account name contains "${NAME_SEARCH}"`);
  const neighbourHeaders = { authorization: `Bearer ${context.neighbour.token}`, 'content-type': 'application/json' };
  const neighbourNameBody = JSON.stringify({ companyId: context.neighbour.companyId, name: NAME_SEARCH });
  // Asked once before timing, so that a refusal (a 4xx counts as failed) shows here, with its reason.
  await call(context.url, neighbourHeaders, `${SEARCH}?limit=${PAGE}`, JSON.parse(neighbourNameBody));

  const run = randomUUID().slice(0, 8);
  let created = 0;
  return [
    { name: 'get-by-id', requests: getByIdRequests(context.sampleIds, auth.authorization), besideBare: true },
    { name: FIRST_PAGE, requests: [search(`limit=${PAGE}`)] },
    { name: SECOND_PAGE, requests: [search(second)] },
    { name: 'search: middle page (cursor)', requests: [search(middle)] },
    { name: LAST_PAGE, requests: [search(last)] },
    {
      name: `search: walking the pages (cursor, ${walkStarts.length} stretches)`,
      requests: pageWalk(walkStarts, (cursor) => search(`limit=${PAGE}${cursor ? `&after=${cursor}` : ''}`)),
    },
    // 10 % of the seeded accounts have no code: DESC puts them first, all tied on the code.
    {
      name: 'search: first page by code DESC',
      requests: [search(`limit=${PAGE}&sorting_keys=code&sorting_order=DESC`)],
    },
    { name: `search: name contains "${NAME_SEARCH}"`, requests: [search(`limit=${PAGE}`, nameBody)] },
    {
      name: `search: name contains "${NAME_SEARCH}", company of ${context.neighbour.accounts.toLocaleString('en')}`,
      requests: [{ ...search(`limit=${PAGE}`, neighbourNameBody), headers: neighbourHeaders }],
    },
    {
      name: 'create',
      once: true,
      requests: [
        {
          method: 'POST',
          path: '/v1-beta/accounts',
          headers,
          setupRequest: (request) => {
            const n = created++;
            const body = {
              companyId: context.companyId,
              externalId: `bench-${run}-${n}`,
              name: `Bench created ${run} ${n}`,
              code: String(n),
              archived: false,
            };
            return { ...request, body: JSON.stringify(body) };
          },
        },
      ],
    },
  ];
}

/** A token of a new user of `companyId`, signed with the service's AUTH_JWT_SECRET: what the scenarios send. */
export function userToken(secret: string, companyId: string): Promise<string> {
  return mintToken(secret, { subject: randomUUID(), companies: [companyId], scope: 'accounts:write', ttl: '1d' });
}

/**
 * One GET per sample id, built once: autocannon sends prebuilt requests without per-request work,
 * and the bare server is driven with this same list, so the load generator costs the same in both.
 */
export function getByIdRequests(ids: string[], authorization: string): LoadRequest[] {
  const headers = { authorization };
  return ids.map((id) => ({ method: 'GET', path: `/v1-beta/accounts/${id}`, headers }));
}

/** The body of one answer of the service, for the bare server to repeat. */
export async function sampleBody(context: Pick<ScenarioContext, 'url' | 'token' | 'sampleIds'>): Promise<string> {
  const response = await fetch(`${context.url}/v1-beta/accounts/${context.sampleIds[0]}`, {
    headers: { authorization: `Bearer ${context.token}` },
  });
  if (!response.ok) throw new Error(`GET account: ${response.status} ${await response.text()}`);
  return response.text();
}

async function call(url: string, headers: Record<string, string>, path: string, body: unknown): Promise<any> {
  const response = await fetch(`${url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function expectPage(
  api: (path: string, body?: unknown) => Promise<any>,
  query: string,
  companyId: string,
  expected: { hasNextPage: boolean },
): Promise<void> {
  const page = await api(`${SEARCH}?${query}`, { companyId });
  if (page.data.length !== PAGE || page.pagination.hasNextPage !== expected.hasNextPage) {
    throw new Error(
      `${query}: expected ${PAGE} rows and hasNextPage ${expected.hasNextPage}, got ${page.data.length} and ${page.pagination.hasNextPage}`,
    );
  }
}
