// Which address failed authentications count under: the socket's peer, or, behind a proxy named
// by TRUST_PROXY, the client that proxy names in X-Forwarded-For (README settings).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { TrustProxy } from '../../src/config.ts';
import { startTestApp, type TestApp } from '../support/harness.ts';

const FAILURES_ALLOWED = 3;
const company = randomUUID();

/** A server whose lockout allows FAILURES_ALLOWED failed authentications per address; requests come from 127.0.0.1. */
function serverTrusting(trustProxy: TrustProxy | undefined): () => TestApp {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({
      trustProxy,
      rateLimits: { max: 0, windowMs: 1000, authFailureMax: FAILURES_ALLOWED, authFailureWindowMs: 60_000 },
    });
  });
  after(() => t.close());
  return () => t;
}

/** The status of an accounts search with `authorization`, sent as if forwarded for `client`. */
async function searchStatus(t: TestApp, authorization: string, client?: string): Promise<number> {
  const response = await t.request('POST', '/v1-beta/accounts:search', {
    headers: { authorization, ...(client ? { 'x-forwarded-for': client } : {}) },
    body: { companyId: company },
  });
  return response.status;
}

async function failFrom(t: TestApp, client: string | undefined, times: number): Promise<void> {
  for (let i = 0; i < times; i++) assert.equal(await searchStatus(t, 'Bearer not.a.jwt', client), 401);
}

describe('failed authentications without TRUST_PROXY', () => {
  const app = serverTrusting(undefined);

  it('count per socket address: a forged X-Forwarded-For does not dodge the lockout', async () => {
    const t = app();
    const good = `Bearer ${await t.token({ companies: [company] })}`;
    for (let i = 0; i < FAILURES_ALLOWED; i++) await failFrom(t, `203.0.113.${i + 1}`, 1);
    assert.equal(await searchStatus(t, good, '203.0.113.99'), 429);
    assert.equal(await searchStatus(t, good), 429);
  });
});

describe('failed authentications with TRUST_PROXY naming the proxy', () => {
  const app = serverTrusting(['127.0.0.1']);

  it('count per client the proxy forwards for, so one client’s failures do not lock out the others', async () => {
    const t = app();
    const good = `Bearer ${await t.token({ companies: [company] })}`;
    await failFrom(t, '203.0.113.1', FAILURES_ALLOWED);
    assert.equal(await searchStatus(t, good, '203.0.113.1'), 429);
    assert.equal(await searchStatus(t, good, '203.0.113.2'), 200);
    assert.equal(await searchStatus(t, good), 200, 'the proxy itself is not locked out');
    // The nearest untrusted hop is the client: a forged first entry does not change it.
    assert.equal(await searchStatus(t, good, '198.51.100.7, 203.0.113.1'), 429);
  });
});
