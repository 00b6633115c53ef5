// The accounts suite: for each database, seed one large company, start the service in a child
// process and time every scenario beside one bare node:http server answering the same body.
// The read scenarios run in interleaved rounds and each figure is the median of its rounds: on these
// VMs the machine's speed swings by a third within minutes, and one run of a scenario says as much
// about that moment as about the service. Get-by-id, the scenario compared with the bare server, is
// timed between two runs of it in every round.
import { buildAuthScenarios, prepareAuth } from './auth-scenarios.ts';
import { type DatabaseKind, prepare } from './databases.ts';
import { buildExportJobScenario, checkExportJobEvents } from './export-job-scenarios.ts';
import { type LoadResult, runLoad } from './load.ts';
import { median } from './median.ts';
import { startBareServer, startService } from './processes.ts';
import { buildScenarios, getByIdRequests, type Scenario, sampleBody, userToken } from './scenarios.ts';
import { type SliceFigures, type SliceSettings, timeInSlices } from './slices.ts';

export interface AccountsSuiteSettings {
  databases: DatabaseKind[];
  accounts: number;
  /** Rounds of the read scenarios; the writing ones (`once`) run once, after them. */
  rounds: number;
  adminUrl: string;
  exportCompanies: number;
  /** The service's AUTH_JWT_SECRET, with which the bench mints its tokens. */
  secret: string;
  connections: number;
  seconds: number;
  /** Untimed load before each scenario of the first round, which warms the JIT, caches and pools. */
  warmupSeconds: number;
  /** Untimed load before each scenario of the later rounds, once the processes are warm. */
  roundWarmupSeconds: number;
  /** Get-by-id in short slices alternating with the bare server, after the rounds; 0 slices: none. */
  slices: Omit<SliceSettings, 'connections'>;
}

/** One scenario on one database: each round's result, and their median. */
export interface ScenarioFigures {
  scenario: string;
  db: DatabaseKind;
  rounds: LoadResult[];
  median: LoadResult;
}

/** One round of get-by-id and the bare server's runs right before and after it. */
export interface GetByIdRound {
  rps: number;
  bareBefore: number;
  bareAfter: number;
  /** rps / the faster of the two bare runs, so that a slow moment of either cannot flatter the service. */
  ratio: number;
}

export interface DatabaseFigures {
  db: DatabaseKind;
  version: string;
  scenarios: ScenarioFigures[];
  /** Every run of the bare server on this database's turn, and their median. */
  bare: { rounds: LoadResult[]; median: LoadResult };
  getById: { rounds: GetByIdRound[]; medianRatio: number; slices?: SliceFigures };
}

export async function runAccountsSuite(
  settings: AccountsSuiteSettings,
  log: (line: string) => void,
): Promise<DatabaseFigures[]> {
  const figures: DatabaseFigures[] = [];
  for (const kind of settings.databases) figures.push(await runOnDatabase(kind, settings, log));
  return figures;
}

async function runOnDatabase(
  kind: DatabaseKind,
  settings: AccountsSuiteSettings,
  log: (line: string) => void,
): Promise<DatabaseFigures> {
  const { secret } = settings;
  const target = await prepare(kind, { accounts: settings.accounts, adminUrl: settings.adminUrl, log });
  const auth = await prepareAuth({ ...target.env, AUTH_JWT_SECRET: secret }, target.companyId);
  const service = await startService({ ...target.env, ...auth.env, AUTH_JWT_SECRET: secret, LOG_LEVEL: 'warn' });
  try {
    const token = await userToken(secret, target.companyId);
    const neighbour = { ...target.neighbour, token: await userToken(secret, target.neighbour.companyId) };
    const context = { url: service.url, token, companyId: target.companyId, sampleIds: target.sampleIds, neighbour };
    log(`${kind}: service ready, finding the cursors`);
    const exportJobs = await buildExportJobScenario(secret, settings.exportCompanies);
    const scenarios: Scenario[] = [
      ...(await buildScenarios(context)),
      ...(await buildAuthScenarios(service.url, auth, target.sampleIds)),
      exportJobs,
    ];
    // The same requests as get-by-id (the bare server ignores path and headers): the figures differ
    // by what the service does, not by what the load generator does.
    const bareServer = await startBareServer(await sampleBody(context));
    const bareRequests = getByIdRequests(context.sampleIds, `Bearer ${token}`);
    const results = new Map<Scenario, LoadResult[]>();
    const bareRuns: LoadResult[] = [];
    const getByIdRounds: GetByIdRound[] = [];
    let slices: SliceFigures | undefined;
    try {
      const time = async (url: string, scenario: Pick<Scenario, 'name' | 'requests'>, warmupSeconds: number) => {
        const { connections, seconds } = settings;
        const result = await runLoad({ url, requests: scenario.requests, connections, seconds, warmupSeconds });
        const stall = result.ioStallPercent === undefined ? '' : `, I/O stall ${result.ioStallPercent.toFixed(0)} %`;
        log(`${kind}: ${scenario.name}: ${Math.round(result.rps)} rps, p99 ${result.p99Ms.toFixed(2)} ms${stall}`);
        return result;
      };
      const timeBare = async (warmupSeconds: number) => {
        const result = await time(bareServer.url, { name: 'bare node:http', requests: bareRequests }, warmupSeconds);
        bareRuns.push(result);
        return result;
      };
      const timeScenario = async (scenario: Scenario, warmupSeconds: number) => {
        const result = await time(service.url, scenario, warmupSeconds);
        results.set(scenario, [...(results.get(scenario) ?? []), result]);
        return result;
      };

      for (let round = 1; round <= settings.rounds; round++) {
        const warmupSeconds = round === 1 ? settings.warmupSeconds : settings.roundWarmupSeconds;
        for (const scenario of scenarios.filter((s) => !s.once)) {
          if (!scenario.besideBare) {
            await timeScenario(scenario, warmupSeconds);
            continue;
          }
          const before = await timeBare(warmupSeconds);
          const { rps } = await timeScenario(scenario, warmupSeconds);
          const after = await timeBare(warmupSeconds);
          const ratio = rps / Math.max(before.rps, after.rps);
          getByIdRounds.push({ rps, bareBefore: before.rps, bareAfter: after.rps, ratio });
          log(`${kind}: round ${round}: ${scenario.name} ${(100 * ratio).toFixed(1)} % of the bare server around it`);
        }
      }
      const getById = scenarios.find((s) => s.besideBare);
      if (getById && settings.slices.slices > 0) {
        log(`${kind}: get-by-id in ${settings.slices.slices} slices between bare ones`);
        slices = await timeInSlices(
          { url: service.url, requests: getById.requests },
          { url: bareServer.url, requests: bareRequests },
          { ...settings.slices, connections: settings.connections },
        );
        log(
          `${kind}: get-by-id in slices: median ${(100 * slices.medianRatio).toFixed(1)} % of the bare slices beside them`,
        );
      }
      for (const scenario of scenarios.filter((s) => s.once)) await timeScenario(scenario, settings.warmupSeconds);
    } finally {
      await bareServer.stop();
    }
    await service.stop();
    log(`${kind}: ${await checkExportJobEvents(target.env, exportJobs.created())}`);
    return {
      db: kind,
      version: target.version,
      scenarios: scenarios.map((s) => ({
        scenario: s.name,
        db: kind,
        rounds: results.get(s) ?? [],
        median: medianOf(results.get(s) ?? []),
      })),
      bare: { rounds: bareRuns, median: medianOf(bareRuns) },
      getById: { rounds: getByIdRounds, medianRatio: median(getByIdRounds.map((r) => r.ratio)), slices },
    };
  } finally {
    await service.stop();
    await target.cleanup();
  }
}

/**
 * Each figure's median over the rounds, taken separately; failures are summed and the I/O stall is
 * the worst round's, so that either shows.
 */
export function medianOf(rounds: LoadResult[]): LoadResult {
  const stalls = rounds.flatMap((r) => (r.ioStallPercent === undefined ? [] : [r.ioStallPercent]));
  return {
    rps: median(rounds.map((r) => r.rps)),
    p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
    responses: rounds.reduce((sum, r) => sum + r.responses, 0),
    failures: rounds.reduce((sum, r) => sum + r.failures, 0),
    ioStallPercent: stalls.length > 0 ? Math.max(...stalls) : undefined,
  };
}
