import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';

export interface TokenClaims {
  subject: string;
  companies: string[];
  scope: string;
  clientId?: string;
  accountingSystem?: string;
  issuer?: string;
  audience?: string;
  /** Lifetime like `1h`, `30m` or `7d` (jose's format). */
  ttl?: string;
}

/** Signs an HS256 bearer token with the service's claims (docs/decisions/credentials.md), for local use and tests. */
export async function mintToken(secret: string, claims: TokenClaims): Promise<string> {
  const jwt = new SignJWT({
    scope: claims.scope,
    companies: claims.companies,
    ...(claims.clientId ? { client_id: claims.clientId } : {}),
    ...(claims.accountingSystem ? { accounting_system: claims.accountingSystem } : {}),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.subject)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(claims.ttl ?? '1h');
  if (claims.issuer) jwt.setIssuer(claims.issuer);
  if (claims.audience) jwt.setAudience(claims.audience);
  return jwt.sign(new TextEncoder().encode(secret));
}
