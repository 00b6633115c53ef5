// The webhooks part of `npm run bench`: per database, the raw undici ceiling against the receiver
// farm, then the worker's delivery of the same notifications and the commit-to-first-attempt latency.
import { notificationBody, notificationHeaders } from '../../src/webhooks/send-notification.ts';
import { EVENT_TYPE, exportJobData } from '../../test/support/delivery-fixtures.ts';
import { type BacklogResult, benchBacklogDrain } from './backlog.ts';
import { benchDelivery, type DeliveryResult } from './delivery.ts';
import { startFarm } from './farm.ts';
import { type RawResult, runRawPosts } from './raw-posts.ts';

/** The raw baseline sends one notification's headers; the id only has to look like one. */
const RAW_MESSAGE_ID = 'msg_rawbaselinerawbaselinerawb';

export interface WebhookSettings {
  databases: ('postgres' | 'pglite')[];
  adminUrl: string;
  receivers: number;
  messages: number;
  latencySamples: number;
  /** Requests in flight in the raw baseline: the worker's default concurrency. */
  rawConcurrency: number;
  /** Messages of the drained backlog (backlog.ts); 0: not measured. */
  backlog: number;
}

export interface WebhookFigures {
  raw: Record<string, RawResult>;
  delivery: DeliveryResult[];
  backlog: BacklogResult[];
}

export async function runWebhookSuite(settings: WebhookSettings, log: (line: string) => void): Promise<WebhookFigures> {
  const farm = await startFarm(settings.receivers);
  const figures: WebhookFigures = { raw: {}, delivery: [], backlog: [] };
  try {
    const payload = {
      data: exportJobData(crypto.randomUUID()),
      eventId: crypto.randomUUID(),
      eventType: EVENT_TYPE,
      sequence: 1,
    };
    const body = notificationBody({ payload });
    for (const kind of settings.databases) {
      // BENCH_WEBHOOK_MESSAGES=0: the backlog drain alone.
      if (settings.messages > 0) {
        const headers = notificationHeaders(
          {
            messageId: RAW_MESSAGE_ID,
            endpointUrl: '',
            payload,
            secrets: [`whsec_${Buffer.alloc(32, 7).toString('base64')}`],
            customHeaders: {},
          },
          body,
          Math.floor(Date.now() / 1000),
        );
        const request = { urls: farm.urls, body, headers, concurrency: settings.rawConcurrency };
        // Untimed first: connections open and the JIT warm, as the worker's are by its 1,000th message.
        await runRawPosts({ ...request, total: 1000 });
        await farm.reset();
        const raw = await runRawPosts({ ...request, total: settings.messages });
        figures.raw[kind] = raw;
        log(`raw undici Pool POSTs before ${kind}: ${Math.round(raw.rps)} per second`);
        figures.delivery.push(
          await benchDelivery({
            kind,
            adminUrl: settings.adminUrl,
            farm,
            messages: settings.messages,
            latencySamples: settings.latencySamples,
            log,
          }),
        );
      }
      if (settings.backlog > 0) {
        figures.backlog.push(
          await benchBacklogDrain({
            kind,
            adminUrl: settings.adminUrl,
            backlog: settings.backlog,
            idleSamples: settings.latencySamples,
            log,
          }),
        );
      }
    }
  } finally {
    await farm.stop();
  }
  return figures;
}

export function formatWebhookTable(figures: WebhookFigures): string {
  const header = ['measurement', 'db', 'per second', 'ratio to raw', 'p50 ms', 'p99 ms', 'max ms', 'check'];
  const rows: string[][] = [];
  const n = (value: number) => Math.round(value).toLocaleString('en');
  for (const d of figures.delivery) {
    const raw = figures.raw[d.kind];
    if (raw) {
      rows.push([
        'raw undici Pool POSTs, same body (ceiling)',
        d.kind === 'postgres' ? '(before pg)' : '(before pglite)',
        n(raw.rps),
        '100.0 %',
        '',
        '',
        '',
        `${raw.failures} failed`,
      ]);
    }
    rows.push([
      `worker: ${d.messages.toLocaleString('en')} signed notifications`,
      d.kind,
      n(d.rps),
      raw ? `${((d.rps / raw.rps) * 100).toFixed(1)} %` : '',
      '',
      '',
      '',
      `${d.delivered}/${d.messages} delivered, ${d.attemptsRecorded} attempts, ${d.duplicates} resent`,
    ]);
    rows.push([
      'commit → first attempt (idle worker)',
      d.kind,
      '',
      '',
      d.latency.p50Ms.toFixed(2),
      d.latency.p99Ms.toFixed(2),
      d.latency.maxMs.toFixed(2),
      `${d.latency.samples} events`,
    ]);
    rows.push([
      'recordEvent + fan-out (backlog)',
      d.kind,
      n(d.recordedMessagesPerSecond),
      '',
      '',
      '',
      '',
      'messages written',
    ]);
  }
  for (const b of figures.backlog) {
    rows.push([
      `backlog of ${b.backlog.toLocaleString('en')} drained to its endpoint`,
      b.kind,
      n(b.drainRate),
      '',
      '',
      '',
      '',
      'per-endpoint cap: 8 in flight',
    ]);
    const latency = (label: string, l: typeof b.idle) => [
      label,
      b.kind,
      '',
      '',
      l.p50Ms.toFixed(2),
      l.p99Ms.toFixed(2),
      l.maxMs.toFixed(2),
      `${l.samples} events`,
    ];
    rows.push(latency('healthy endpoint: commit → arrival, during the drain', b.duringDrain));
    rows.push(latency('healthy endpoint: commit → arrival, no backlog', b.idle));
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)));
  const numeric = (i: number) => i >= 2 && i <= 6;
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (numeric(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric(i) ? `${'-'.repeat(w + 1)}:` : '-'.repeat(w + 2))).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
