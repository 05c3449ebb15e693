/**
 * Exact decimals. Amounts live as integers of a fixed scale (minor units: cents for money,
 * basis points for percentages) and are never added or multiplied as floats.
 */

/** Renders a JS number without exponent notation (1e-7 → '0.0000001'), the form `parseDecimal` reads. */
function plainNumberText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/**
 * Reads a decimal (JSON number or string) into an integer of `scale` decimals, or `null` when it
 * is not a finite decimal or carries more decimals than `scale` allows.
 * @example parseDecimal(19.99, 2) // 1999
 */
export function parseDecimal(value: unknown, scale: number): number | null {
  if (typeof value !== 'number' && typeof value !== 'string') return null;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  const text = typeof value === 'number' ? plainNumberText(value) : value.trim();
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const [, sign, whole = '0', fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > scale) return null;
  const scaled = BigInt(whole) * 10n ** BigInt(scale) + BigInt(significant.padEnd(scale, '0') || '0');
  if (scaled > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const result = Number(scaled);
  return sign && result !== 0 ? -result : result;
}

/**
 * Renders a scaled integer as a JSON number. Dividing an integer by a power of ten gives the
 * double nearest to the decimal, which JSON prints as exactly that decimal.
 * @example formatDecimal(1999, 2) // 19.99
 */
export function formatDecimal(scaled: number, scale: number): number {
  return scaled / 10 ** scale;
}

/** Money in minor units of 2 decimals. */
export const MONEY_SCALE = 2;
/** Percentages such as discounts, in basis points (2 decimals of a percent). */
export const PERCENT_SCALE = 2;
