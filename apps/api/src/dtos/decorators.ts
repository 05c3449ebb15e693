import { ValidateIf, ValidationArguments, registerDecorator } from 'class-validator';

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
        validate: (value: unknown, args: ValidationArguments) => value === undefined || (args.object as Record<string, unknown>)[other] === undefined,
      },
    });
  };
}
