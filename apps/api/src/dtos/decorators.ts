import {
  IsInt,
  IsNumber,
  Max,
  Min,
  ValidateIf,
  ValidationArguments,
  ValidationOptions,
  registerDecorator,
} from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { parseDecimal } from '@brand/core';

/**
 * The field may be left out, but when sent it must hold a value: `null` is checked like any other
 * value (and so fails `@IsString()`). `@IsOptional()` would let `null` through, which is right
 * only for fields where null means "clear".
 */
export function MayBeOmitted(): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined);
}

/** The constraint name of `NotTogetherWith`, for the OpenAPI converter (it has no JSON Schema form). */
export const NOT_TOGETHER_WITH = 'notTogetherWith';

/** Rejects the field when `other` is sent too (two spellings of the same thing). */
export function NotTogetherWith(other: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: NOT_TOGETHER_WITH,
      target: target.constructor,
      propertyName: String(propertyName),
      constraints: [other],
      options: { message: `cannot be sent together with ${other}; send one of them` },
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          value === undefined || (args.object as Record<string, unknown>)[other] === undefined,
      },
    });
  };
}

/**
 * The largest id a body may name. Ids are `bigint` columns, but a JSON number names an integer
 * exactly only up to 2^53 - 1; beyond that (`1e308` passes `Number.isInteger`) Postgres answers
 * `invalid input syntax for type bigint`.
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER;

/** The largest value of an `integer` column on Postgres (quantities, days, sort positions). */
export const MAX_INT32 = 2_147_483_647;
export const MIN_INT32 = -2_147_483_648;

// Applied in the order the decorator syntax would (bottom first), so the schema says integer, not number.
// `options` (a message, `each`) are IsInt's; the bounds keep their own messages.
function boundedInt(min: number, max: number, options: ValidationOptions): PropertyDecorator {
  const bounds = options.each === undefined ? {} : { each: options.each };
  return (target, key) => {
    Max(max, bounds)(target, key);
    Min(min, bounds)(target, key);
    IsInt(options)(target, key);
  };
}

/** An id of a stored record: a whole number from 1 to `MAX_ID`. */
export function IsId(options: ValidationOptions = {}): PropertyDecorator {
  return boundedInt(1, MAX_ID, options);
}

/** A whole number an `integer` column holds (a quantity, a count, a position): `min` to `MAX_INT32`. */
export function IsInt32(options: ValidationOptions & { min?: number } = {}): PropertyDecorator {
  const { min = MIN_INT32, ...validation } = options;
  return boundedInt(min, MAX_INT32, validation);
}

/**
 * The largest amount of money a body may carry (a price, a fee, a cost), in any currency. Amounts
 * are kept as integer minor units; `parseDecimal` gives up beyond 2^53 - 1 of them (so 1e300 as a
 * shipping cost was silently dropped), and sums of several amounts must stay exact too, so the
 * bound sits far below that: one trillion leaves room for sums of ninety such amounts.
 */
export const MAX_AMOUNT = 1_000_000_000_000;

/** The constraint name of `IsDecimal`'s decimals check, for the OpenAPI converter (it has no JSON Schema form). */
export const HAS_DECIMALS = 'hasDecimals';

/**
 * A JSON number from `min` to `max` with at most `decimals` decimals. The decimals are counted as
 * the core reads the number (`parseDecimal`): class-validator's `maxDecimalPlaces` counts them in
 * the number's text, where `1e-7` has no "." at all, so it passed as a whole number and the core
 * then found no value in it.
 */
export function IsDecimal(decimals: number, bounds: { min: number; max: number }): PropertyDecorator {
  const message = `must be a number with at most ${decimals} decimals`;
  return (target, key) => {
    registerDecorator({
      name: HAS_DECIMALS,
      target: target.constructor,
      propertyName: String(key),
      constraints: [decimals],
      options: { message },
      validator: { validate: (value: unknown) => typeof value !== 'number' || parseDecimal(value, decimals) !== null },
    });
    Max(bounds.max)(target, key);
    Min(bounds.min)(target, key);
    IsNumber({ allowNaN: false, allowInfinity: false }, { message })(target, key);
  };
}

/** An amount of money: a JSON number from 0 to `MAX_AMOUNT` with at most 2 decimals. */
export function IsAmount(): PropertyDecorator {
  return IsDecimal(2, { min: 0, max: MAX_AMOUNT });
}

/** Says what is wrong with a value, or null when it is fine. */
export type ValueCheck = (value: unknown) => string | null;

/** Holds when `check` finds nothing wrong with the value. */
export function Satisfies(name: string, check: ValueCheck): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: String(propertyName),
      validator: {
        validate: (value: unknown) => check(value) === null,
        defaultMessage: (args?: ValidationArguments) => check(args?.value) ?? 'is invalid',
      },
    });
  };
}

/** A document number as bodies take it: an integer, or a string of digits (`"10023"`). */
export const documentNumberValue: ValueCheck = (value) =>
  value === undefined
    ? 'is required (an integer or a string of digits)'
    : (typeof value === 'number' && Number.isSafeInteger(value) && value >= 1) ||
        (typeof value === 'string' && /^\d{1,15}$/.test(value) && Number(value) >= 1)
      ? null
      : 'must be a positive integer or a string of digits';

/** The number of a validated document-number field. */
export function documentNumber(value: number | string): number {
  return Number(value);
}

/**
 * A field a related body takes but this one does not (a sync item's `delete` in a create). Unknown
 * fields are ignored, but one of these is refused (422 naming it, with `reason`): whoever sends
 * it expects it to act, and ignoring it would report a success that did not happen. The OpenAPI
 * document says no value is valid (`not: {}`).
 */
export function NotAccepted(reason: string): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    MayBeOmitted()(target, propertyName);
    Satisfies('notAccepted', () => `is not accepted here: ${reason}`)(target, propertyName);
    // The function form replaces the schema the library would derive from the reflected type.
    JSONSchema(() => ({ not: {}, description: `Not accepted: ${reason}` }))(target, String(propertyName));
  };
}
