// What an activity says changed (docs/decisions/subscriptions.md, "Activities"): the fields before
// and after, never a secret. Custom header values and the Basic password can be credentials, so only
// header names, and that a password changed, are told; an endpoint URL is told without its user
// info and query values, which can carry tokens.
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
    };
  const [old, now] = [shown(before), shown(after) as NonNullable<ReturnType<typeof shown>>];
  const changes: Change[] = [];
  for (const field of Object.keys(now) as (keyof typeof now)[]) {
    const was = old ? old[field] : null;
    if (JSON.stringify(was) !== JSON.stringify(now[field])) changes.push({ field, before: was, after: now[field] });
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

/** The URL with its user info and query values left out: `https://***@host/path?token=…`. */
export function withoutCredentials(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return '…';
  }
  const userInfo = parsed.username || parsed.password ? '***@' : '';
  const query = [...parsed.searchParams.keys()].map((key) => `${encodeURIComponent(key)}=…`).join('&');
  return `${parsed.protocol}//${userInfo}${parsed.host}${parsed.pathname}${query ? `?${query}` : ''}`;
}
