// Formats of text that settings, arguments and requests must match exactly.

/** A uuid in its text form, in either case (RFC 9562): what ids, `sub` and company ids must be. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A whole number in decimal digits. `Number()` and Ajv's coercion also read ` ` as 0, `0x10` as 16,
 * `1e3` as 1000 and `+5` as 5: a setting or a query parameter is refused unless it matches this.
 */
export const DECIMAL_INTEGER = /^-?[0-9]+$/;
