import { createHash } from 'node:crypto';
import { base32 } from 'rfc4648';
import { ApiError } from '../problem.ts';

// A cursor is opaque to clients and written in the reference API's alphabet (A-Z2-7=~):
// `<fingerprint>~<base32 of the boundary row's sort values>`. The fingerprint binds it to the
// filters and sort it was made for, so it cannot be replayed against another query.

// The fingerprint (5 bytes, 8 characters), then the values.
const CURSOR_SHAPE = /^[A-Z2-7]{8}~[A-Z2-7]+=*$/;

/** A short digest of what a cursor is valid for: the resource, its filters and its sort. */
export function fingerprint(scope: unknown): string {
  const digest = createHash('sha256').update(JSON.stringify(scope)).digest();
  return base32.stringify(digest.subarray(0, 5));
}

export function encodeCursor(print: string, values: string[]): string {
  return `${print}~${base32.stringify(Buffer.from(JSON.stringify(values)))}`;
}

/** The boundary values of `cursor`, or 400 INVALID_CURSOR. */
export function decodeCursor(cursor: string, print: string, length: number): string[] {
  const [head, body, ...rest] = cursor.split('~');
  if (body === undefined || rest.length > 0 || !CURSOR_SHAPE.test(cursor)) {
    throw new ApiError('INVALID_CURSOR', 'The cursor is malformed');
  }
  if (head !== print) {
    throw new ApiError('INVALID_CURSOR', 'The cursor was made for other filters or sort; start again without it');
  }
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(base32.parse(body)).toString('utf8'));
  } catch {
    throw new ApiError('INVALID_CURSOR', 'The cursor is malformed');
  }
  if (!Array.isArray(values) || values.length !== length || !values.every((v) => typeof v === 'string')) {
    throw new ApiError('INVALID_CURSOR', 'The cursor is malformed');
  }
  return values;
}
