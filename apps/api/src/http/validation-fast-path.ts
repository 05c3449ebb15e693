import type { ValidationArguments } from 'class-validator';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/**
 * A yes-only pre-check in front of class-validator, for bodies that are valid (nearly all of
 * them). For each DTO class it keeps, once, the class's rules as class-validator reads them (the
 * same metadata lookup, the same constraint objects, called with the same arguments) and runs
 * them as plain loops, without the executor's per-property error objects, filters, closures and
 * promise. It answers only "every rule holds": any failed rule, thrown error, or promise (an
 * async rule, a promised value) answers "not sure", and the caller then runs
 * class-validator itself, whose errors are the ones reported. A wrong "yes" would let an invalid
 * body through, so the step-for-step correspondence with class-validator 0.14.4's
 * `ValidationExecutor` (named in the comments below) is proven by `validation-shortcut.test.ts`
 * on a generated corpus of valid and invalid bodies of every DTO, in both directions.
 *
 * Nothing is switched on by importing this module: `createApp` calls `installValidationFastPath`,
 * and so must anything else that validates bodies without the app.
 */

/** A class-validator rule of one property: a constraint's `validate`, with the arguments it is called with. */
interface RuleCheck {
  instance: { validate(value: unknown, args: ValidationArguments): unknown };
  /** `{ each: true }`: applies to each element of an array value, else to the value itself. */
  each: boolean;
  /** The arguments class-validator builds per call; only `object` and `value` change, so one is reused. */
  args: ValidationArguments;
}

interface PropertyRules {
  name: string;
  /** `@IsOptional`, `@ValidateIf`: the property is checked only when every one of them holds. */
  conditions: ((object: object, value: unknown) => unknown)[];
  /** `@IsDefined` first, then every other constraint, in class-validator's order. */
  rules: RuleCheck[];
  /** Per `@ValidateNested`: the schema name class-validator looks the nested object's rules up with. */
  nested: string[];
}

/** A class's rules, or `null` when the class has none (class-validator refuses such an object: `forbidUnknownValues`). */
type ClassRules = PropertyRules[] | null;

/** `validate` would answer with a verdict this pre-check does not reproduce. */
const NOT_MIRRORED = Symbol('not mirrored');

/**
 * The class-validator release the pre-check was proven on (`validation-shortcut.test.ts`). On
 * any other release every body goes to class-validator alone.
 */
const PROVEN_CLASS_VALIDATOR = '0.14.4';

let enabled = false;
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator's own key type
const compiled = new Map<Function, Map<string | undefined, ClassRules | typeof NOT_MIRRORED>>();

function isProvenClassValidator(): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the installed release's own version, read at run time
  return (require('class-validator/package.json') as { version: string }).version === PROVEN_CLASS_VALIDATOR;
}

/**
 * Puts the pre-check in front of class-validator for every body validated from now on (only on
 * the release it is proven on). Calling it again changes nothing.
 */
export function installValidationFastPath(): void {
  enabled = isProvenClassValidator();
}

/** Takes it away, so that every body goes through class-validator alone (the equivalence test compares both). */
export function uninstallValidationFastPath(): void {
  enabled = false;
  compiled.clear();
}

/**
 * True only if class-validator, with the API's options (`forbidUnknownValues`, no whitelist, no
 * groups, no skipping of missing values), would find nothing wrong with `object`.
 */
export function surelyValid(object: object): boolean {
  if (!enabled) return false;
  try {
    return objectHolds(object, undefined);
  } catch {
    // A constraint that throws is class-validator's to report (or to throw again).
    return false;
  }
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator's own key type
function rulesOf(constructor: Function, schema: string | undefined): ClassRules | typeof NOT_MIRRORED {
  let perSchema = compiled.get(constructor);
  if (!perSchema)
    compiled.set(constructor, (perSchema = new Map<string | undefined, ClassRules | typeof NOT_MIRRORED>()));
  let rules = perSchema.get(schema);
  if (rules === undefined) perSchema.set(schema, (rules = compile(constructor, schema)));
  return rules;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator's own key type
function compile(constructor: Function, schema: string | undefined): ClassRules | typeof NOT_MIRRORED {
  const storage = getMetadataStorage();
  // `execute`: the same lookup and grouping, with `always` and `strictGroups` off and no groups.
  const metadatas = storage.getTargetValidationMetadatas(constructor, schema as string, false, false, undefined);
  if (metadatas.length === 0) return null;
  const properties: PropertyRules[] = [];
  for (const [name, all] of Object.entries(storage.groupByPropertyName(metadatas))) {
    const defined = all.filter((m) => m.type === ValidationTypes.IS_DEFINED);
    const others = all.filter((m) => m.type !== ValidationTypes.IS_DEFINED && m.type !== ValidationTypes.WHITELIST);
    if (others.some((m) => m.type === ValidationTypes.PROMISE_VALIDATION)) return NOT_MIRRORED;
    // `performValidations`: the IS_DEFINED rules, then the custom ones; other types are not validated.
    const constraintRules = [...defined, ...others.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION)];
    properties.push({
      name,
      conditions: others
        .filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION)
        .map((m) => m.constraints[0] as (object: object, value: unknown) => unknown),
      rules: constraintRules.flatMap((metadata) => ruleChecks(constructor, metadata)),
      nested: others
        .filter((m) => m.type === ValidationTypes.NESTED_VALIDATION)
        .map((m) => (typeof m.target === 'string' ? m.target : m.target.name)),
    });
  }
  return properties;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator's own key type
function ruleChecks(constructor: Function, metadata: ValidationMetadata): RuleCheck[] {
  // `customValidations`: every constraint registered for the rule's class.
  return getMetadataStorage()
    .getTargetValidatorConstraints(metadata.constraintCls)
    .map((constraint) => ({
      instance: constraint.instance,
      each: metadata.each === true,
      args: {
        targetName: constructor.name,
        property: metadata.propertyName,
        object: undefined as unknown as object,
        value: undefined,
        constraints: metadata.constraints,
      },
    }));
}

/** `execute`: every property of the object holds. */
function objectHolds(object: object, schema: string | undefined): boolean {
  const constructor = object.constructor;
  if (typeof constructor !== 'function') return false;
  const properties = rulesOf(constructor, schema);
  if (properties === null || properties === NOT_MIRRORED) return false;
  for (const property of properties) {
    const value = (object as Record<string, unknown>)[property.name];
    if (!propertyHolds(property, object, value)) return false;
  }
  return true;
}

/**
 * What class-validator walks as a list (`each` rules, `@ValidateNested`): an array's elements,
 * a Set's, a Map's values (`prices` is a Map by currency); null for any other value.
 */
function elementsOf(value: unknown): readonly unknown[] | null {
  if (Array.isArray(value)) return value as unknown[];
  if (value instanceof Set) return Array.from(value as Set<unknown>);
  if (value instanceof Map) return Array.from((value as Map<unknown, unknown>).values());
  return null;
}

/** `performValidations` of one property. */
function propertyHolds(property: PropertyRules, object: object, value: unknown): boolean {
  if (value instanceof Promise) return false;
  // `conditionalValidations`: the property is skipped unless every condition holds.
  for (const condition of property.conditions) if (!condition(object, value)) return true;
  const elements = elementsOf(value);
  for (const rule of property.rules) {
    rule.args.object = object;
    rule.args.value = value;
    if (rule.each && elements !== null) {
      for (const element of elements) if (!ruleHolds(rule, element)) return false;
    } else if (!ruleHolds(rule, value)) return false;
  }
  // `nestedValidations`: nothing to check in an undefined value.
  if (value === undefined) return true;
  for (const schema of property.nested) if (!nestedHolds(value, schema)) return false;
  return true;
}

function ruleHolds(rule: RuleCheck, value: unknown): boolean {
  const verdict = rule.instance.validate(value, rule.args);
  // A promise (an async constraint) is class-validator's to await.
  if (verdict !== null && typeof verdict === 'object' && typeof (verdict as { then?: unknown }).then === 'function')
    return false;
  return Boolean(verdict);
}

/** `nestedValidations` of one `@ValidateNested`: a list's elements each, an object by its class's rules. */
function nestedHolds(value: unknown, schema: string): boolean {
  const elements = elementsOf(value);
  if (elements !== null) {
    for (const element of elements) {
      // An undefined element is skipped, as class-validator skips an undefined nested value.
      if (element !== undefined && !nestedHolds(element, schema)) return false;
    }
    return true;
  }
  return value instanceof Object && objectHolds(value, schema);
}
