import { plainToInstance } from 'class-transformer';
import { ValidationError, validate } from 'class-validator';
import { DomainError, Violation, pointerToPath } from '@brand/core';
import { InvalidQueryParameters } from './api-error';
import { DtoClass, toDtoInstance } from './dto-instance';
import { surelyValid } from './validation-fast-path';

export type { DtoClass } from './dto-instance';

const VALIDATOR_OPTIONS = {
  forbidUnknownValues: true,
  // Unknown properties are ignored, not rejected: ERPs send their whole record and add fields
  // over time, and a sync that broke on every new ERP field would be worse than one that skips it.
  whitelist: false,
  validationError: { target: false, value: false },
} as const;

/** class-validator messages start with the property name ("zip must be a string"); the path replaces it. */
function messageWithout(property: string, message: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

// Constraints that check the JSON type of a value. When one fails, the others on the same field
// (length, range, format) only repeat the same cause, so it is the one reported.
const TYPE_CONSTRAINTS = ['isString', 'isNumber', 'isInt', 'isBoolean', 'isArray', 'isObject', 'nestedValidation'];

/** The one message reported for a field: its type problem if it has one, else the first problem found. */
function mainProblem(constraints: Record<string, string>): string | undefined {
  const type = TYPE_CONSTRAINTS.find((name) => constraints[name] !== undefined);
  // class-validator says "nested property x must be either object or array", which reads as if arrays were fine.
  if (type === 'nestedValidation') return 'must be an object';
  return type ? constraints[type] : Object.values(constraints)[0];
}

/** Flattens class-validator's error tree into one violation per field, pointing at it (`/customers/2/addresses/0/zip`). */
export function toViolations(errors: ValidationError[], parentPointer = ''): Violation[] {
  return errors.flatMap((error) => {
    const pointer = `${parentPointer}/${error.property}`;
    const message = error.constraints ? mainProblem(error.constraints) : undefined;
    const own =
      message === undefined
        ? []
        : [{ pointer, detail: `${pointerToPath(pointer)} ${messageWithout(error.property, message)}` }];
    // Children of a field whose type is already wrong would only repeat the problem.
    return own.length > 0 && error.constraints?.['isArray']
      ? own
      : [...own, ...toViolations(error.children ?? [], pointer)];
  });
}

/**
 * Checks a JSON body against its DTO: the JSON types, required fields, formats and sizes.
 * Business rules (does the customer exist, is the code taken) stay in the core use cases.
 * Throws `validation_failed` naming every invalid field.
 */
export async function validateBody<T extends object>(dto: DtoClass<T>, body: unknown): Promise<T> {
  const input = body === undefined ? {} : body;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw DomainError.validation([{ pointer: '', detail: 'The request body must be a JSON object' }]);
  }
  // No conversion of values: "true" is not a boolean and "12" is not a number in a JSON body.
  const instance = toDtoInstance(dto, input as Record<string, unknown>);
  // Valid bodies (nearly all) are confirmed by the pre-check once `createApp` has installed it;
  // the rest get class-validator's own errors.
  if (surelyValid(instance)) return instance;
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  if (errors.length > 0) throw DomainError.validation(toViolations(errors));
  return instance;
}

/**
 * Checks query parameters against their DTO; query values are text, so they are converted to the
 * declared types first. class-transformer is safe here: the query parser drops `constructor`
 * and other prototype keys, and nests at most a few levels.
 */
export async function validateQuery<T extends object>(dto: DtoClass<T>, query: unknown): Promise<T> {
  // No pre-check here: its equivalence is proven on the body DTOs' corpus only, and a query has
  // a few parameters, whose validation costs little.
  const instance = plainToInstance(dto, query ?? {}, { enableImplicitConversion: true });
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  if (errors.length > 0) {
    throw new InvalidQueryParameters(
      toViolations(errors).map((v) => {
        const [first = '', ...rest] = v.pointer.split('/').filter(Boolean);
        return { parameter: first + rest.map((part) => `[${part}]`).join(''), detail: v.detail };
      }),
    );
  }
  return instance;
}
