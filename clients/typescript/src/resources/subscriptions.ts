// Webhook subscriptions (/v1/subscriptions): the subscriptions, their signing secrets, audit trail
// and health, and the delivery log of their messages.
import type { PageIterator } from '../pages.ts';
import type { RequestOptions, ResponseBody, Transport } from '../transport.ts';
import type { Body, Data, ListQuery } from '../types.ts';
import { data, list, nothing } from './calls.ts';

export class Subscriptions {
  readonly #transport: Transport;
  /** The delivery log: each message sent to a subscription, its attempts, a resend. */
  readonly messages: SubscriptionMessages;

  constructor(transport: Transport) {
    this.#transport = transport;
    this.messages = new SubscriptionMessages(transport);
  }

  /** Never retried after a 429 or 503: a second create makes a second subscription. */
  create(body: Body<'createSubscription'>, options?: RequestOptions): Promise<Data<'createSubscription'>> {
    return data(this.#transport, 'createSubscription', { body }, options);
  }

  list(
    query?: ListQuery<'getSubscriptions'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'getSubscriptions'>> {
    return list(this.#transport, 'getSubscriptions', {}, query, options);
  }

  get(id: string, options?: RequestOptions): Promise<Data<'getSubscriptionById'>> {
    return data(this.#transport, 'getSubscriptionById', { path: { id } }, options);
  }

  /** A whole replacement; `status: 'ACTIVE'` re-enables a disabled subscription. */
  update(id: string, body: Body<'updateSubscription'>, options?: RequestOptions): Promise<Data<'updateSubscription'>> {
    return data(this.#transport, 'updateSubscription', { path: { id }, body }, options);
  }

  delete(id: string, options?: RequestOptions): Promise<void> {
    return nothing(this.#transport, 'deleteSubscription', { path: { id } }, options);
  }

  /** The current signing secret, for verifyWebhook. */
  secret(id: string, options?: RequestOptions): Promise<Data<'getSubscriptionSecret'>> {
    return data(this.#transport, 'getSubscriptionSecret', { path: { id } }, options);
  }

  /** A new signing secret; the old one still signs for a while, so verify with both meanwhile. */
  rotateSecret(id: string, options?: RequestOptions): Promise<Data<'rotateSubscriptionSecret'>> {
    return data(this.#transport, 'rotateSubscriptionSecret', { path: { id } }, options);
  }

  activities(
    id: string,
    query?: ListQuery<'getSubscriptionActivities'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'getSubscriptionActivities'>> {
    return list(this.#transport, 'getSubscriptionActivities', { path: { id } }, query, options);
  }

  health(id: string, options?: RequestOptions): Promise<Data<'getSubscriptionHealth'>> {
    return data(this.#transport, 'getSubscriptionHealth', { path: { id } }, options);
  }

  /** Sends a window's failed messages again, in their order. */
  recover(
    id: string,
    body: Body<'recoverSubscriptionMessages'>,
    options?: RequestOptions,
  ): Promise<Data<'recoverSubscriptionMessages'>> {
    return data(this.#transport, 'recoverSubscriptionMessages', { path: { id }, body }, options);
  }

  /** Sends the event type's example, signed, to this subscription alone. */
  sendTestEvent(id: string, body: Body<'sendTestEvent'>, options?: RequestOptions): Promise<Data<'sendTestEvent'>> {
    return data(this.#transport, 'sendTestEvent', { path: { id }, body }, options);
  }
}

export class SubscriptionMessages {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  list(
    id: string,
    query?: ListQuery<'listSubscriptionMessages'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'listSubscriptionMessages'>> {
    return list(this.#transport, 'listSubscriptionMessages', { path: { id } }, query, options);
  }

  get(id: string, messageId: string, options?: RequestOptions): Promise<Data<'getSubscriptionMessage'>> {
    return data(this.#transport, 'getSubscriptionMessage', { path: { id, messageId } }, options);
  }

  attempts(
    id: string,
    messageId: string,
    query?: ListQuery<'listMessageAttempts'>,
    options?: RequestOptions,
  ): PageIterator<ResponseBody<'listMessageAttempts'>> {
    return list(this.#transport, 'listMessageAttempts', { path: { id, messageId } }, query, options);
  }

  resend(id: string, messageId: string, options?: RequestOptions): Promise<Data<'resendMessage'>> {
    return data(this.#transport, 'resendMessage', { path: { id, messageId } }, options);
  }
}
