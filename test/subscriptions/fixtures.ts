import assert from 'node:assert/strict';
import type { TestApp } from '../support/harness.ts';

export const EVENT_TYPE = 'v1.export-job.created';

/** A valid subscription request, with `fields` replacing or adding to it. */
export function subscriptionBody(fields: Record<string, unknown> = {}) {
  return { eventTypes: [EVENT_TYPE], endpointUrl: 'https://example.com/webhook', ...fields };
}

/** Creates a subscription as `token`; returns the whole 200 body. */
export async function createSubscription(t: TestApp, token: string, fields: Record<string, unknown> = {}) {
  const response = await t.request('POST', '/v1/subscriptions', { token, body: subscriptionBody(fields) });
  assert.equal(response.status, 200, response.text);
  return response.body;
}

/** Asserts a 400 and returns the JSON pointers of its field errors, each once, sorted. */
export function errorPaths(response: { status: number; body: { errors?: { path: string }[] }; text: string }) {
  assert.equal(response.status, 400, response.text);
  return [...new Set((response.body.errors ?? []).map((e) => e.path))].sort();
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
