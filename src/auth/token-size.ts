// A bearer token travels in a request header, and Node reads a request's line and headers up to
// 16 KiB (its default maxHeaderSize): past it the request is answered 431 before any route runs. A
// token's companies are most of its length (about 52 bytes each), so a token naming a few hundred
// would be issued and then refused on every request. Tokens are kept to 12 KiB, leaving 4 KiB for the
// request line (a search's query string, a cursor) and the other headers.

/** The longest bearer token the service issues or mints. */
export const MAX_TOKEN_LENGTH = 12 * 1024;

/** Why a token of this length cannot be used, naming its companies, or undefined when it fits. */
export function tokenLengthError(length: number, companies: number): string | undefined {
  if (length <= MAX_TOKEN_LENGTH) return undefined;
  return (
    `a token naming ${companies} companies would be ${length} bytes, more than the ${MAX_TOKEN_LENGTH} that fit ` +
    'in a request header beside the rest of a request (16 KiB in all); split the companies over several tokens or clients'
  );
}

/**
 * The length of an ES256 access token (credentials/operations.ts issueToken) of these companies and
 * scopes, with room for an issuer URL of up to 200 characters: known before any is issued.
 */
export function accessTokenLength(companies: readonly string[], scope: string): number {
  const uuid = '00000000-0000-0000-0000-000000000000';
  const payload = {
    scope,
    companies,
    client_id: uuid,
    sub: uuid,
    iss: 'x'.repeat(200),
    aud: 'ledgerhook-production',
    jti: uuid,
    iat: 2_000_000_000,
    exp: 2_000_000_000,
  };
  const header = { alg: 'ES256', typ: 'at+jwt', kid: 'x'.repeat(43) };
  const base64urlLength = (value: object) => Math.ceil((Buffer.byteLength(JSON.stringify(value)) * 4) / 3);
  // Two dots, and an ES256 signature: 64 bytes, 86 characters.
  return base64urlLength(header) + base64urlLength(payload) + 2 + 86;
}
