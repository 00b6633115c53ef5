// The webhook bench's endpoints: RECEIVERS node:http servers on 127.0.0.1 in this one child process,
// each answering 204 to every request. Started with fork(): it sends `{ready, urls}` once listening,
// answers `stats` with what arrived (count, distinct webhook-ids, first and last arrival), and forgets
// it all on `reset`. Its own process, so that receiving never shares an event loop with sending.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FarmStats {
  requests: number;
  /** Distinct webhook-id headers (a request without one counts under ''). */
  distinctIds: number;
  /** `performance.timeOrigin + performance.now()` of the first and last arrival, in ms. */
  firstAt: number;
  lastAt: number;
}

export type FarmCommand = { type: 'stats' } | { type: 'reset' };
export type FarmReport = { type: 'ready'; urls: string[] } | ({ type: 'stats' } & FarmStats);

const count = Number(process.env.RECEIVERS ?? 50);
let stats: FarmStats = { requests: 0, distinctIds: 0, firstAt: 0, lastAt: 0 };
let ids = new Set<string>();

function receive(request: import('node:http').IncomingMessage, response: import('node:http').ServerResponse) {
  request.resume();
  request.once('end', () => {
    const now = performance.timeOrigin + performance.now();
    if (stats.requests === 0) stats.firstAt = now;
    stats.lastAt = now;
    stats.requests++;
    ids.add(String(request.headers['webhook-id'] ?? ''));
    response.writeHead(204).end();
  });
}

const servers: Server[] = [];
const urls = await Promise.all(
  Array.from({ length: count }, () => {
    const server = createServer({ keepAliveTimeout: 30_000 }, receive);
    servers.push(server);
    return new Promise<string>((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`)),
    );
  }),
);

process.on('message', (command: FarmCommand) => {
  if (command.type === 'reset') {
    stats = { requests: 0, distinctIds: 0, firstAt: 0, lastAt: 0 };
    ids = new Set();
  }
  process.send?.({ type: 'stats', ...stats, distinctIds: ids.size } satisfies FarmReport);
});
process.once('SIGTERM', () => {
  for (const server of servers) {
    server.close();
    server.closeAllConnections();
  }
  process.disconnect?.();
});
process.send?.({ type: 'ready', urls } satisfies FarmReport);
