// The arithmetic of POST /v0/tax-codes:calculate-tax-amounts: gross, net and tax of an amount in
// minor units under a tax code's rate and type, exact to the last digit. Amounts are integers of
// minor units and the rate is the decimal text PostgreSQL stores (numeric), so every step is
// integer arithmetic on BigInt: no binary fraction ever stands for a decimal one
// (docs/decisions/tax-codes-and-entries.md, "Tax amounts").
import type { TaxCodeType } from './schemas.ts';

export interface TaxBreakdown {
  gross: bigint;
  net: bigint;
  tax: bigint;
}

/** A decimal as an integer over a power of ten: "0.125" is 125 / 1000. */
interface DecimalFraction {
  numerator: bigint;
  denominator: bigint;
}

/**
 * The amount's breakdown under the rate (a fraction: "0.25" is 25 %):
 * - inclusive: the amount is gross, tax included; tax = gross × rate / (1 + rate), net = gross − tax;
 * - exclusive: the amount is net; tax = net × rate, gross = net + tax;
 * - reverse: the amount is what was paid, both gross and net; tax = amount × rate is the VAT the
 *   buyer accounts for itself (reverse charge), booked as ingoing and outgoing tax at once, so it
 *   adds nothing to what was paid.
 * Tax is rounded to one minor unit, half away from zero; gross and net follow from it exactly.
 */
export function taxBreakdown(minors: bigint, rate: string, type: TaxCodeType): TaxBreakdown {
  const { numerator, denominator } = parseDecimal(rate);
  switch (type) {
    case 'inclusive': {
      const tax = divideRoundingHalfUp(minors * numerator, denominator + numerator);
      return { gross: minors, net: minors - tax, tax };
    }
    case 'exclusive': {
      const tax = divideRoundingHalfUp(minors * numerator, denominator);
      return { gross: minors + tax, net: minors, tax };
    }
    case 'reverse':
      return { gross: minors, net: minors, tax: divideRoundingHalfUp(minors * numerator, denominator) };
  }
}

/** The stored rate's text, as PostgreSQL prints a numeric: digits with at most one point, no sign or exponent. */
function parseDecimal(text: string): DecimalFraction {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new Error(`A tax rate must be a plain non-negative decimal, not ${text}`);
  const fraction = match[2] ?? '';
  return { numerator: BigInt(`${match[1]}${fraction}`), denominator: 10n ** BigInt(fraction.length) };
}

/**
 * numerator / denominator (denominator > 0) to the nearest integer, a half away from zero, so that
 * a negative amount (a refund) mirrors its positive one exactly.
 */
function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  const magnitude = numerator < 0n ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return numerator < 0n ? -rounded : rounded;
}
