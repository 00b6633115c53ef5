// Export jobs created per second, each with its v1.export-job.created event in the same
// transaction. A company admits one open job (else 409), so every request names a fresh company.
// A token listing 20,000 companies would be ~1 MB, far over Node's 16 KiB header limit: the
// companies are spread over many small tokens (COMPANIES_PER_TOKEN each, ~0.7 KiB), so the
// per-request verification costs about what the other scenarios' one-company token costs.
// `accountingEntryIds: []` keeps the work to the job and its event (no item selection).
import { randomUUID } from 'node:crypto';
import { mintToken } from '../src/auth/mint-token.ts';
import { openDatabase } from '../src/db/open-database.ts';
import type { Scenario } from './scenarios.ts';

const COMPANIES_PER_TOKEN = 10;

export interface ExportJobScenario extends Scenario {
  /** 201 answers seen, the untimed warm-up included: the jobs the service should hold. */
  created(): number;
}

/** `companies` fresh companies; past them the requests would repeat one and fail with 409. */
export async function buildExportJobScenario(secret: string, companies: number): Promise<ExportJobScenario> {
  const tokens = await Promise.all(
    Array.from({ length: Math.ceil(companies / COMPANIES_PER_TOKEN) }, async () => {
      const ids = Array.from({ length: COMPANIES_PER_TOKEN }, () => randomUUID());
      const token = await mintToken(secret, {
        subject: randomUUID(),
        companies: ids,
        scope: 'export-jobs:write',
        ttl: '1d',
      });
      return { authorization: `Bearer ${token}`, ids };
    }),
  );
  let next = 0;
  let created = 0;
  return {
    name: 'create export job (+ event)',
    once: true,
    created: () => created,
    requests: [
      {
        method: 'POST',
        path: '/v2/export-jobs',
        setupRequest: (request) => {
          const n = next++ % (tokens.length * COMPANIES_PER_TOKEN);
          const token = tokens[Math.floor(n / COMPANIES_PER_TOKEN)];
          if (!token) throw new Error(`no token for company ${n}`);
          return {
            ...request,
            headers: { authorization: token.authorization, 'content-type': 'application/json' },
            body: JSON.stringify({ companyId: token.ids[n % COMPANIES_PER_TOKEN], accountingEntryIds: [] }),
          };
        },
        onResponse: (status) => {
          if (status === 201) created++;
        },
      },
    ],
  };
}

/**
 * After the service has stopped (a PGlite DATA_DIR admits one process): rows in `events` equal rows in
 * `export_jobs`, each job has its v1.export-job.created event, and no 201 lacks its job. Throws otherwise.
 */
export async function checkExportJobEvents(databaseEnv: Record<string, string>, created: number): Promise<string> {
  const db = await openDatabase({ databaseUrl: databaseEnv.DATABASE_URL, dataDir: databaseEnv.DATA_DIR ?? '' });
  try {
    const [row] = await db.query<{ jobs: number; events: number; matched: number }>(
      `SELECT (SELECT count(*)::int FROM export_jobs) AS jobs,
              (SELECT count(*)::int FROM events) AS events,
              (SELECT count(*)::int FROM export_jobs j
                 JOIN events e ON e.event_type = 'v1.export-job.created' AND (e.data->>'id')::uuid = j.id) AS matched`,
    );
    const { jobs = -1, events = -2, matched = -3 } = row ?? {};
    const line = `check: ${created} jobs created (201), ${jobs} rows in export_jobs, ${events} rows in events, ${matched} jobs with their event`;
    // autocannon ends each run (warm-up, timed) with up to `connections` requests in flight: their
    // jobs commit but their 201s go uncounted, so only `created <= jobs` holds for the client's count.
    if (!(events === jobs && matched === jobs && created <= jobs)) throw new Error(`${line}: MISMATCH`);
    return `${line}: ok`;
  } finally {
    await db.close();
  }
}
