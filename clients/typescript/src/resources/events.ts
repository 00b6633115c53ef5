// The event feed (GET /v1/events): the payloads webhooks carry, pulled, oldest first; and the catalogue of event types.
import type { PageIterator } from '../pages.ts';
import type { RequestOptions, ResponseBody, Transport } from '../transport.ts';
import type { Data, ListQuery, WebhookPayload } from '../types.ts';
import { data, list } from './calls.ts';

type FeedPage = ResponseBody<'listEvents'>;

/** A feed item: its payload typed as a notification's, narrowed by `payload.eventType`. */
export type FeedEvent = Omit<FeedPage['data'][number], 'payload'> & { payload: WebhookPayload };

export type FeedEventsPage = Omit<FeedPage, 'data'> & { data: FeedEvent[] };

export class Events {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * A company's events, oldest first. Keep the last page's `endCursor` to continue from it later
   * (`.pages({ after })`); the feed has no total.
   */
  list(query: ListQuery<'listEvents'>, options?: RequestOptions): PageIterator<FeedEventsPage> {
    // The feed's items are notification payloads (the same eventId): typed as the webhooks' union.
    return list(this.#transport, 'listEvents', {}, query, options) as unknown as PageIterator<FeedEventsPage>;
  }
}

export class EventTypes {
  readonly #transport: Transport;

  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /** Every event type: its description, the scopes a subscriber needs, its data's schema and an example. */
  list(options?: RequestOptions): Promise<Data<'listEventTypes'>> {
    return data(this.#transport, 'listEventTypes', {}, options);
  }
}
