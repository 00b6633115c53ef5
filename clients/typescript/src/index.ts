export { type Credentials, Ledgerhook, type LedgerhookOptions } from './client.ts';
export { LedgerhookError } from './errors.ts';
export { SERVICE_VERSION } from './generated/openapi.ts';
export { type PageBody, type PageCursor, PageIterator } from './pages.ts';
export type { FeedEvent, FeedEventsPage } from './resources/events.ts';
export type { ApiResponse, OperationArgs, RequestOptions, ResponseBody } from './transport.ts';
export type * from './types.ts';
export {
  type VerifyOptions,
  verifyWebhook,
  verifyWebhookSignature,
  type WebhookHeaders,
  WebhookVerificationError,
} from './webhooks.ts';
