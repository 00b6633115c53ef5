// What an activity says changed (docs/decisions/subscriptions.md, "Activities"): the fields before
// and after, never a secret. Custom header values and the Basic password can be credentials, so only
// header names, and that a password changed, are told; an endpoint URL is told without its user
// info, query and parameter values, and path segments that are not words, which can carry tokens.
import type { Principal } from '../auth/principal.ts';

/** The fields of a subscription an activity compares; the password only to tell that it changed. */
export interface AuditedFields {
  status: string;
  eventTypes: string[];
  endpointUrl: string;
  customHeaders: Record<string, string>;
  authType: string;
  basicUsername: string | null;
  basicPassword: string | null;
  rateLimit: number | null;
}

export interface Change {
  field: string;
  before: unknown;
  after: unknown;
}

/** Who did it, as a URN: the client (application), else the token's subject. */
export function actorOf(principal: Principal): string {
  return principal.clientId
    ? `urn:ledgerhook:client:${principal.clientId}`
    : `urn:ledgerhook:user:${principal.subject}`;
}

/** The service itself (auto-disable), and an operator at the command line (client revocation). */
export const SYSTEM_ACTOR = 'urn:ledgerhook:system';
export const OPERATOR_ACTOR = 'urn:ledgerhook:operator';

/** The changed fields from `before` to `after`; a created subscription has no `before`. */
export function changesBetween(before: AuditedFields | null, after: AuditedFields): Change[] {
  const shown = (fields: AuditedFields | null) =>
    fields && {
      status: fields.status,
      eventTypes: [...fields.eventTypes].sort(),
      endpointUrl: withoutCredentials(fields.endpointUrl),
      customHeaders: Object.keys(fields.customHeaders).sort(),
      endpointAuth: { type: fields.authType, username: fields.basicUsername },
      rateLimitPerSecond: fields.rateLimit,
    };
  const [old, now] = [shown(before), shown(after) as NonNullable<ReturnType<typeof shown>>];
  const changes: Change[] = [];
  for (const field of Object.keys(now) as (keyof typeof now)[]) {
    const was = old ? old[field] : null;
    // An endpoint URL whose hidden part alone changed (a new token) is told, though both look alike.
    const changed =
      field === 'endpointUrl'
        ? before?.endpointUrl !== after.endpointUrl
        : JSON.stringify(was) !== JSON.stringify(now[field]);
    if (changed) changes.push({ field, before: was, after: now[field] });
  }
  if (before) {
    const valuesChanged = Object.keys(after.customHeaders).filter(
      (name) => name in before.customHeaders && before.customHeaders[name] !== after.customHeaders[name],
    );
    if (valuesChanged.length > 0) {
      changes.push({ field: 'customHeaderValues', before: null, after: { changed: valuesChanged.sort() } });
    }
    if (before.basicPassword !== null && after.basicPassword !== null && before.basicPassword !== after.basicPassword) {
      changes.push({ field: 'endpointAuthPassword', before: null, after: { changed: true } });
    }
  }
  return changes;
}

/**
 * The URL as a trail may tell it (docs/decisions/tenant-isolation.md, "Secrets in endpoint URLs"):
 * user info, query values and `;name=value` parameter values left out, and every path segment or
 * name that does not read as a word shown as `…`, as tokens in paths are the common form of webhook
 * URLs (Slack's `/services/T…/B…/<token>`, Discord's `/api/webhooks/<id>/<token>`). The fragment
 * is never sent, and not told.
 */
export function withoutCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '…';
  }
  const userInfo = parsed.username || parsed.password ? '***@' : '';
  const path = parsed.pathname.split('/').map(shownPathSegment).join('/');
  const query = [...parsed.searchParams.keys()].map((key) => `${shownWord(encodeURIComponent(key))}=…`).join('&');
  return `${parsed.protocol}//${userInfo}${parsed.host}${path}${query ? `?${query}` : ''}`;
}

/** A path segment with its `;name=value` parameters (`;jsessionid=…`): the values never, the rest if words. */
function shownPathSegment(segment: string): string {
  const [head = '', ...parameters] = segment.split(';');
  const shown = parameters.map((parameter) => {
    const equals = parameter.indexOf('=');
    return equals < 0 ? shownWord(parameter) : `${shownWord(parameter.slice(0, equals))}=…`;
  });
  return [head === '' ? '' : shownWord(head), ...shown].join(';');
}

// Letters with `-`, `_` or `.` between them (`webhooks`, `hook.php`, `api_key`), or a version (`v2`).
const WORD = /^(?:[A-Za-z]+(?:[-_.][A-Za-z]+)*|v\d{1,3})$/;
const MAX_WORD_LENGTH = 20;

/**
 * `text` when it reads as a word: at most 20 characters of WORD, with at most one change from lower
 * to upper case (`webhookReceiver`); else `…`. A token of random letters and digits almost never
 * passes: one digit, a length past 20 or two case changes are enough to hide it.
 */
function shownWord(text: string): string {
  const caseChanges = text.match(/[a-z][A-Z]/g)?.length ?? 0;
  return text.length <= MAX_WORD_LENGTH && WORD.test(text) && caseChanges <= 1 ? text : '…';
}
