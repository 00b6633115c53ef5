// An experiment, not a suite: POST /v1-beta/accounts at two commits of the service, side by side on
// one machine. Each commit's service runs on a database of its own (migrated by itself, seeded with
// one company of BENCH_ACCOUNTS accounts); rounds of creates alternate between them, so a drift of
// the machine falls on both. Answers the median creates per second of each.
//   node bench/create-ab.ts <worktree of the other commit> [rounds]
// The other commit's worktree needs node_modules (a link to this one's will do). `.` compares this
// commit with itself; AB_OTHER_SQL is then run on the other side's database after seeding (e.g. to
// put back a trigger), so the two sides differ only by it. BENCH_ACCOUNTS (100,000) are seeded.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { mintToken } from '../src/auth/mint-token.ts';
import { openDatabase } from '../src/db/open-database.ts';
import { runLoad } from './load.ts';
import { median } from './median.ts';
import { freePort } from './processes.ts';

const other = process.argv[2];
if (!other) throw new Error('usage: node bench/create-ab.ts <worktree of the other commit> [rounds]');
const rounds = Number(process.argv[3] ?? 8);
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const accounts = Number(process.env.BENCH_ACCOUNTS ?? 100_000);
const secret = 'x'.repeat(32);

const sides = [
  { name: 'this', root: new URL('../', import.meta.url).pathname, database: 'ledgerhook_ab_this' },
  { name: 'other', root: other, database: 'ledgerhook_ab_other' },
];
const companyId = randomUUID();
const token = await mintToken(secret, {
  subject: randomUUID(),
  companies: [companyId],
  scope: 'accounts:write',
  ttl: '1d',
});
const running = [];
for (const side of sides) {
  const url = await recreate(side.database);
  const port = await freePort();
  const child = spawn(process.execPath, ['src/main.ts', 'serve', '--role', 'api'], {
    cwd: side.root,
    env: {
      ...process.env,
      DATABASE_URL: url,
      AUTH_JWT_SECRET: secret,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MAX: String(2 ** 31),
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  while (
    !(await fetch(`${base}/health/ready`).then(
      (r) => r.ok,
      () => false,
    ))
  )
    await sleep(200);
  // Seeded once the service has migrated the database its own way, through its own triggers.
  const db = await openDatabase({ databaseUrl: url, dataDir: '' });
  await db.query(
    `INSERT INTO accounts (company_id, external_id, name, archived, code)
     SELECT $1, 'seed-' || i, 'Seeded account ' || md5(i::text), false, i::text FROM generate_series(1, $2) AS i`,
    [companyId, accounts],
  );
  await db.query('VACUUM ANALYZE accounts');
  if (side.name === 'other' && process.env.AB_OTHER_SQL) await db.exec(process.env.AB_OTHER_SQL);
  await db.close();
  running.push({ ...side, base, child, rps: [] as number[] });
}

let n = 0;
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? [...running].reverse() : running;
  for (const side of order) {
    const result = await runLoad({
      url: side.base,
      connections: 10,
      seconds: 5,
      warmupSeconds: 1,
      requests: [
        {
          method: 'POST',
          path: '/v1-beta/accounts',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          setupRequest: (request) => {
            const i = n++;
            const body = {
              companyId,
              externalId: `ab-${i}`,
              name: `AB created ${i}`,
              code: String(i),
              archived: false,
            };
            return { ...request, body: JSON.stringify(body) };
          },
        },
      ],
    });
    side.rps.push(result.rps);
    console.log(
      `round ${round + 1} ${side.name}: ${Math.round(result.rps)} creates/s, p99 ${result.p99Ms.toFixed(2)} ms, ${result.failures} failed`,
    );
  }
}
for (const side of running) {
  console.log(
    `${side.name} (${side.root}): median ${Math.round(median(side.rps))} creates/s of ${side.rps.map(Math.round).join(', ')}`,
  );
  side.child.kill('SIGTERM');
}

async function recreate(database: string): Promise<string> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}
