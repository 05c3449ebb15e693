import { TransformationType } from 'class-transformer';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import { classTransformerMetadata } from '../openapi/class-transformer-metadata';

/** A DTO class: class-validator decorators on its properties, a no-argument constructor. */
export type DtoClass<T extends object = object> = new () => T;

/**
 * Stands where a JSON body has something other than an object (an array, a number) in a place
 * its DTO declares a nested object: class-validator would walk an array there as if it were a
 * list of such objects (`{"customers":[[]]}` passed, and crashed the use case), whereas a value
 * that is no object at all it refuses at that very pointer ("must be an object"). The marker is
 * only ever seen by the validator, which always refuses it.
 */
const NOT_AN_OBJECT = Symbol('not a JSON object');

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** How one property of a DTO class is built from JSON; looked up once per class and property. */
interface PropertyPlan {
  /** The nested DTO class (`@Type`), if any. */
  nested: DtoClass | null;
  /** `@ValidateNested({ each: true })`: the property holds a list of nested objects, not one. */
  list: boolean;
  transforms: ReturnType<typeof classTransformerMetadata.findTransformMetadatas>;
}

const plans = new Map<DtoClass, Map<string, PropertyPlan>>();

/** Keys without a nested class or transform remembered per DTO class (its plain fields, and then some). */
const REMEMBERED_PLAIN_KEYS = 200;

function planOf(dto: DtoClass, key: string): PropertyPlan {
  let perClass = plans.get(dto);
  if (!perClass) plans.set(dto, (perClass = new Map<string, PropertyPlan>()));
  let plan = perClass.get(key);
  if (!plan) {
    const type = classTransformerMetadata.findTypeMetadata(dto, key);
    const nestedRules = getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', false, false)
      .filter((rule) => rule.propertyName === key && rule.type === ValidationTypes.NESTED_VALIDATION);
    plan = {
      nested: type?.typeFunction ? (type.typeFunction() as DtoClass) : null,
      list: nestedRules.some((rule) => rule.each === true),
      transforms: classTransformerMetadata.findTransformMetadatas(dto, key, TransformationType.PLAIN_TO_CLASS),
    };
    // Declared properties are remembered, and so are the first other keys seen (a sync's plain
    // fields such as `name` or `sku` have no nested class or transform, and looking them up again
    // for each of its thousands of objects cost more than building the instances); beyond that,
    // unknown keys are as many as a caller cares to send, and are not kept.
    if (type || nestedRules.length > 0 || plan.transforms.length > 0 || perClass.size < REMEMBERED_PLAIN_KEYS)
      perClass.set(key, plan);
  }
  return plan;
}

function nestedValue(type: DtoClass, value: unknown): unknown {
  if (isJsonObject(value)) return toDtoInstance(type, value);
  // null is left as sent: an optional nested object may be cleared with null.
  return value === null || value === undefined ? value : NOT_AN_OBJECT;
}

function nestedList(type: DtoClass, value: unknown): unknown {
  // A value that is not an array is left for @IsArray to refuse.
  return Array.isArray(value)
    ? value.map((item) => (isJsonObject(item) ? toDtoInstance(type, item) : NOT_AN_OBJECT))
    : value;
}

/**
 * Builds a DTO instance from a parsed JSON object. Only what the DTO declares as a nested object
 * (`@Type`) becomes an instance of a class; every other value (text, numbers, free-form objects
 * such as `meta`, `attributes` or `tracking_link_templates`, and properties the DTO does not
 * know) is kept as the very data that was sent. class-transformer's `plainToInstance` copied
 * those values too, and took an own `constructor` key inside them for a class to instantiate
 * ("targetType is not a constructor"), while silently dropping `constructor` keys from the data.
 */
export function toDtoInstance<T extends object>(dto: DtoClass<T>, plain: Record<string, unknown>): T {
  const instance = new dto() as T & Record<string, unknown>;
  for (const key of Object.keys(plain)) {
    // A key the instance answers to without owning it (`constructor`, `toString`, a getter) is
    // no DTO field; copying it would shadow what the validator reads (`constructor` names the
    // class whose rules apply), so, like any unknown property, it is ignored.
    if (key in instance && !Object.prototype.hasOwnProperty.call(instance, key)) continue;
    const plan = planOf(dto, key);
    let value = plain[key];
    if (plan.nested) value = plan.list ? nestedList(plan.nested, value) : nestedValue(plan.nested, value);
    for (const transform of plan.transforms) {
      value = transform.transformFn({ value, key, obj: plain, type: TransformationType.PLAIN_TO_CLASS, options: {} });
    }
    instance[key as keyof T & string] = value as never;
  }
  return instance;
}
