import { ValidationArguments, registerDecorator } from 'class-validator';
import { MAX_INT32, ValueCheck } from '../decorators';

/**
 * The field is a JSON object whose keys are free (currency codes, attribute names, stock types)
 * and whose every value passes `check`. The message names the first offending key. Shapes
 * only: amounts, codes and references are checked by the core use case.
 */
export function IsRecordOf(name: string, check: ValueCheck, describe: string): PropertyDecorator {
  const problem = (value: unknown): string | null => {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return `must be an object ${describe}`;
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      const wrong = check(item);
      if (wrong !== null) return `must be an object ${describe}; ${key} ${wrong}`;
    }
    return null;
  };
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => problem(value) === null,
        defaultMessage: (args?: ValidationArguments) => problem(args?.value) ?? 'is invalid',
      },
    });
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const isFiniteNumber = (value: unknown): boolean => typeof value === 'number' && Number.isFinite(value);

/** A string attribute value. */
export const stringValue: ValueCheck = (value) => (typeof value === 'string' ? null : 'must be a string');

/** `{ sales_price, rec_sales_price, offer_price }`, amounts as JSON numbers (offer_price may be null). */
export const priceValue: ValueCheck = (value) => {
  if (!isPlainObject(value)) return 'must be an object with sales_price, rec_sales_price and offer_price';
  for (const field of ['sales_price', 'rec_sales_price'] as const) {
    if (value[field] !== undefined && !isFiniteNumber(value[field])) return `${field} must be a number`;
  }
  if (value['offer_price'] !== undefined && value['offer_price'] !== null && !isFiniteNumber(value['offer_price']))
    return 'offer_price must be a number or null';
  return null;
};

/** `{ quantity, delivery }`: a whole quantity and a date or null. */
export const stockValue: ValueCheck = (value) => {
  if (!isPlainObject(value)) return 'must be an object with quantity and delivery';
  // In stock is an `integer` column.
  if (
    typeof value['quantity'] !== 'number' ||
    !Number.isInteger(value['quantity']) ||
    Math.abs(value['quantity']) > MAX_INT32
  )
    return `quantity must be an integer of at most ${MAX_INT32}`;
  if (value['delivery'] !== undefined && value['delivery'] !== null && typeof value['delivery'] !== 'string')
    return 'delivery must be a date (YYYY-MM-DD) or null';
  return null;
};

/** The older form's EAN: an integer (or a string of digits), or null to clear it. */
export const eanValue: ValueCheck = (value) =>
  value === null ||
  (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) ||
  typeof value === 'string'
    ? null
    : 'must be an integer, a string of digits, or null';
