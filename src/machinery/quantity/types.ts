/** The resource.Quantity value type and its parse errors (k8s.io/apimachinery/pkg/api/resource). */

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/**
 * An exact quantity: value = mantissa × 10^exponent, printed in `format`. `cached` is the input
 * text upstream keeps (and serializes verbatim) when it already was in canonical shape.
 */
export interface Quantity {
  readonly mantissa: bigint;
  readonly exponent: number;
  readonly format: QuantityFormat;
  readonly cached?: string;
}

const splitREString = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';

/** Upstream ErrFormatWrong / ErrNumeric / ErrSuffix texts. */
export const quantityErrors = {
  formatWrong: `quantities must match the regular expression '${splitREString}'`,
  numeric: 'unable to parse numeric part of quantity',
  suffix: "unable to parse quantity's suffix",
} as const;

/** A string that is not a quantity; `message` is upstream's error text. */
export class QuantityParseError extends Error {
  override readonly name = 'QuantityParseError';
}
