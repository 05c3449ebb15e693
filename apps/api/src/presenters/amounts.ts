import { MONEY_SCALE, PERCENT_SCALE, formatDecimal } from '@brand/core';

/** An amount kept in minor units, as the wire shows it: a JSON number with at most two decimals. */
export const money = (minor: number): number => formatDecimal(minor, MONEY_SCALE);

/** `money`, or null for an amount that is not set. */
export const moneyOrNull = (minor: number | null): number | null => (minor === null ? null : money(minor));

/** A percentage kept in basis points, as the wire shows it (2100 → 21). */
export const percent = (basisPoints: number): number => formatDecimal(basisPoints, PERCENT_SCALE);
