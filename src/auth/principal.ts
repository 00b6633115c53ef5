// Who is calling, as the bearer token says (docs/decisions/credentials.md).

export const SCOPES = [
  'accounts:read',
  'accounts:write',
  'tax-codes:read',
  'tax-codes:write',
  'accounting-entries:read',
  'accounting-entries:write',
  'export-jobs:read',
  'export-jobs:write',
  'export-items:read',
  'bookkeeping-categories:read',
  'bookkeeping-categories:write',
  'contra-accounts:read',
  'contra-accounts:write',
  'bookkeeping-preferences:read',
  'bookkeeping-preferences:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export interface Principal {
  /** The user or application acting. */
  subject: string;
  /** The third-party application; subscriptions belong to it, else to the subject. */
  clientId: string | undefined;
  scopes: ReadonlySet<string>;
  companies: ReadonlySet<string>;
  accountingSystem: string | undefined;
  /**
   * The credential that authenticated the request, which rate limits count per: `api-key:<id>`,
   * `client:<id>` (a token from our /oauth/token) or `subject:<sub>` (any other token).
   */
  credential?: string;
}

/** Reads need `:read` or `:write` of the same resource; writes need `:write`. */
export function hasScope(principal: Principal, required: Scope): boolean {
  return principal.scopes.has(required) || principal.scopes.has(WRITE_SCOPE_OF_READ.get(required) ?? '');
}

// `accounts:read` → `accounts:write`, for each read scope whose write scope exists: there is no
// `export-items:write`, and a token claiming it is granted nothing.
const WRITE_SCOPE_OF_READ: ReadonlyMap<string, string> = new Map(
  SCOPES.filter((scope) => scope.endsWith(':read'))
    .map((scope) => [scope, scope.replace(/:read$/, ':write')] as const)
    .filter(([, write]) => (SCOPES as readonly string[]).includes(write)),
);
