// `ledgerhook listen`: for development, a temporary subscription to a listener on this machine that
// prints and forwards what arrives; the subscription is deleted when the command stops, Ctrl-C
// included (docs/decisions/listen.md).
import { constants } from 'node:os';
import { type Config, ConfigError } from '../config.ts';
import { listenForStop, TERMINAL_STOP_SIGNALS } from '../stop-signal.ts';
import { startListener } from './listener.ts';
import { parseListenOptions } from './options.ts';
import { type Answer, type EventTypeEntry, refusal, type ServiceClient, serviceClient } from './service-client.ts';

export interface Output {
  /** What arrived: each notification, and what became of it. */
  out(text: string): void;
  /** What the command does: the subscription, its deletion, failures. */
  err(text: string): void;
}

const CONSOLE: Output = { out: (text) => console.log(text), err: (text) => console.error(text) };

/**
 * Runs until SIGINT, SIGTERM or SIGHUP (its terminal closed); resolves with the exit code: 1 when
 * the subscription could not be deleted.
 */
export async function runListen(config: Config, argv: string[], output: Output = CONSOLE): Promise<number> {
  const options = parseListenOptions(argv, config);
  const stop = listenForStop(TERMINAL_STOP_SIGNALS);
  const service = serviceClient(options.url, options.credential);
  const listener = await startListener({
    port: options.port,
    forward: options.forward,
    verbose: options.verbose,
    print: output.out,
  });
  let subscriptionId: string | undefined;
  void stop.next.then(() => {
    // A second signal ends the process at once, as for `serve`, saying what it leaves behind.
    for (const signal of TERMINAL_STOP_SIGNALS) {
      process.once(signal, () => {
        if (subscriptionId) output.err(`ledgerhook: stopped before deleting ${leftBehind(subscriptionId)}`);
        process.exit(128 + constants.signals[signal]);
      });
    }
  });
  let code = 0;
  try {
    const subscription = await subscribe(service, options.events, listener.url, () => stop.received !== undefined);
    if (!subscription) return 0;
    subscriptionId = subscription.id;
    if (stop.received === undefined) {
      listener.trust(await service.secretOf(subscription.id));
      output.err(`Subscription ${subscription.id} sends ${subscription.eventTypes.join(', ')} to ${listener.url}`);
      output.err(
        `${options.forward ? `Forwarding each notification to ${options.forward.href}` : 'Answering each notification 204 (no --forward)'}; Ctrl-C deletes the subscription and stops.`,
      );
      await stop.next;
    }
  } finally {
    if (subscriptionId) {
      try {
        await service.deleteSubscription(subscriptionId);
        output.err(`Deleted subscription ${subscriptionId}.`);
      } catch (error) {
        output.err(`ledgerhook: ${(error as Error).message}; ${leftBehind(subscriptionId)}`);
        code = 1;
      }
    }
    await listener.close();
  }
  return code;
}

function leftBehind(id: string): string {
  return `subscription ${id}, which may still exist: delete it with DELETE /v1/subscriptions/${id}`;
}

/**
 * Creates the subscription: to the types asked for, else to every type the credential may subscribe
 * to. Undefined when a stop came first.
 */
async function subscribe(
  service: ServiceClient,
  requested: string[] | undefined,
  endpointUrl: string,
  stopped: () => boolean,
): Promise<{ id: string; eventTypes: string[] } | undefined> {
  const known = await service.eventTypes();
  const unknown = requested?.filter((type) => !known.some((entry) => entry.eventType === type)) ?? [];
  if (unknown.length > 0) {
    throw new ConfigError(`--events: no event type ${unknown.join(', ')} (GET /v1/event-types lists them)`);
  }
  let eventTypes = requested ?? known.map((entry) => entry.eventType);
  if (stopped()) return undefined;
  let answer = await service.createSubscription({ eventTypes, endpointUrl });
  const missing = missingScopesOf(answer);
  if (!requested && missing.length > 0) {
    // Nothing says which scopes a credential holds (an API key carries none to read), so the types
    // are asked for all at once and those needing a scope it lacks (the 403 names them) left out.
    eventTypes = subscribable(known, missing);
    if (stopped()) return undefined;
    answer = await service.createSubscription({ eventTypes, endpointUrl });
  }
  const id = (answer.body?.data as { id?: unknown } | undefined)?.id;
  if (answer.status === 200 && typeof id === 'string') return { id, eventTypes };
  const endpointProblem = endpointProblemOf(answer);
  if (endpointProblem) {
    throw new ConfigError(
      `the service refuses the listener's address ${endpointUrl} as an endpoint (${endpointProblem}): start the service with WEBHOOK_ALLOW_PRIVATE_TARGETS=true, for development, to let it send to this machine`,
    );
  }
  throw refusal(answer, 'the service refused the subscription');
}

/** The types whose scopes the credential holds; refused when no resource's type is among them. */
function subscribable(known: EventTypeEntry[], missing: string[]): string[] {
  const kept = known.filter((entry) => !entry.scopes.some((scope) => missing.includes(scope)));
  if (!kept.some((entry) => entry.scopes.length > 0)) {
    throw new ConfigError(
      `the credential may subscribe to no resource's events: it holds none of the scopes ${missing.join(', ')}`,
    );
  }
  return kept.map((entry) => entry.eventType);
}

function missingScopesOf({ status, body }: Answer): string[] {
  return status === 403 && Array.isArray(body?.missingScopes) ? (body.missingScopes as string[]) : [];
}

/** The service's reason for refusing the endpoint URL (http, a private address), without its hint. */
function endpointProblemOf({ status, body }: Answer): string | undefined {
  if (status !== 400 || !Array.isArray(body?.errors)) return undefined;
  const error = (body.errors as { path?: string; message?: string }[]).find((e) => e.path === '/endpointUrl');
  return error?.message?.split(';')[0];
}
