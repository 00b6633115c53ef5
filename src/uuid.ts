/** A uuid in its text form, in either case (RFC 9562): what ids, `sub` and company ids must be. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
