import { randomUUID } from 'node:crypto';

/** A valid create (and PUT) body of a tax code of `companyId`, with a code of its own; `fields` replace or add. */
export const taxCodeBody = (companyId: string, fields: Record<string, unknown> = {}) => ({
  companyId,
  name: 'Standardmoms (25 %)',
  code: `VAT-${randomUUID()}`,
  rate: 0.25,
  type: 'inclusive',
  archived: false,
  ...fields,
});
