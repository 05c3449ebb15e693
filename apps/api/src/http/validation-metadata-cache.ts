import { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import type { ValidationError, ValidatorOptions } from 'class-validator';
import { ValidationTypes, getMetadataStorage } from 'class-validator';

/** A class whose decorators class-validator recorded (its own signature takes `Function`). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- class-validator's own key type
type Target = Function;

type Lookup = (
  targetConstructor: Target,
  targetSchema: string,
  always: boolean,
  strictGroups: boolean,
  groups?: string[],
) => ValidationMetadata[];

let installed = false;

/** Undo steps of the installed patch, last first (see `uninstallValidationMetadataCache`). */
const restorers: (() => void)[] = [];

/**
 * The class-validator release the patch below was proven on: `validation-shortcut.test.ts`
 * validates a generated corpus of bodies for every DTO with and without it and gets the same
 * errors. Any other release keeps the library's own lookups and executor, unpatched.
 */
const PROVEN_CLASS_VALIDATOR = '0.14.4';

/** Whether the installed class-validator is the release the shortcuts were proven on. */
export function isProvenClassValidator(): boolean {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('class-validator/package.json') as { version: string }).version === PROVEN_CLASS_VALIDATOR;
}

/**
 * class-validator looks up a class's validation metadata (its own and its ancestors', scanning
 * every registered class) for every object it validates, and groups it by property each time.
 * A product sync of 100 products validates ~1,600 nested objects, so that lookup was ~40% of the
 * request's validation time. Decorators all run when their class is defined, before any object
 * of it is validated, so the answer per (class, schema, options) never changes: it is cached
 * here, and so is the grouping of each cached list. Lookups with validation groups (unused by
 * this API) are passed through.
 */
export function cacheValidationMetadata(): void {
  if (installed || !isProvenClassValidator()) return;
  installed = true;
  const storage = getMetadataStorage();
  // The replacements are own properties over the storage's prototype methods: deleting them restores those.
  restorers.push(() => {
    delete (storage as Partial<typeof storage>).getTargetValidationMetadatas;
    delete (storage as Partial<typeof storage>).groupByPropertyName;
  });
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const lookups = new Map<Target, Map<string, ValidationMetadata[]>>();
  const groupings = new WeakMap<ValidationMetadata[], ReturnType<typeof group>>();

  storage.getTargetValidationMetadatas = (targetConstructor, targetSchema, always, strictGroups, groups) => {
    if (groups && groups.length > 0) return lookup(targetConstructor, targetSchema, always, strictGroups, groups);
    const key = `${targetSchema}\u0000${always}\u0000${strictGroups}`;
    let perClass = lookups.get(targetConstructor);
    if (!perClass) lookups.set(targetConstructor, (perClass = new Map<string, ValidationMetadata[]>()));
    let found = perClass.get(key);
    if (!found) perClass.set(key, (found = lookup(targetConstructor, targetSchema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let grouped = groupings.get(metadata);
    if (!grouped) groupings.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
  cacheMetadataPartitions();
}

interface Partition {
  defined: ValidationMetadata[];
  others: ValidationMetadata[];
  hasPromiseValidation: boolean;
}

interface Split {
  custom: ValidationMetadata[];
  nested: ValidationMetadata[];
  conditional: ValidationMetadata[];
}

/** What the patched methods use of class-validator's (internal) ValidationExecutor. */
interface Executor {
  validatorOptions?: ValidatorOptions;
  metadataStorage: ReturnType<typeof getMetadataStorage>;
  awaitingPromises: Promise<unknown>[];
  whitelist(object: object, grouped: Record<string, ValidationMetadata[]>, errors: ValidationError[]): void;
  performValidations(
    object: object,
    value: unknown,
    propertyName: string,
    defined: ValidationMetadata[],
    metadatas: ValidationMetadata[],
    errors: ValidationError[],
  ): void;
  validateProperty(
    object: object,
    value: unknown,
    definedMetadatas: ValidationMetadata[],
    metadatas: ValidationMetadata[],
    split: Split,
    validationError: ValidationError,
  ): void;
  conditionalValidations(object: object, value: unknown, metadatas: ValidationMetadata[]): boolean;
  generateValidationError(object: object, value: unknown, propertyName: string): ValidationError;
  customValidations(object: object, value: unknown, metadatas: ValidationMetadata[], error: ValidationError): void;
  mapContexts(object: object, value: unknown, metadatas: ValidationMetadata[], error: ValidationError): void;
  nestedValidations(value: unknown, metadatas: ValidationMetadata[], error: ValidationError): void;
}

/**
 * Then, for every property of every object, class-validator splits the property's metadata by
 * type with five `filter` calls. The metadata lists are the cached ones above, so the splits are
 * cached per list too. `execute` and `performValidations` below are class-validator 0.14's own,
 * step for step, with the filters replaced by those cached splits: same checks, same order,
 * same errors.
 */
function cacheMetadataPartitions(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ValidationExecutor } = require('class-validator/cjs/validation/ValidationExecutor') as {
    ValidationExecutor: { prototype: Record<string, unknown> };
  };
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { ValidationError: ValidationErrorClass } = require('class-validator/cjs/validation/ValidationError') as {
    ValidationError: new () => ValidationError;
  };
  const proto = ValidationExecutor.prototype;
  const own = { execute: proto['execute'], performValidations: proto['performValidations'] };
  restorers.push(() => {
    Object.assign(proto, own);
    delete proto['validateProperty'];
  });
  const originalPerform = proto['performValidations'] as (
    this: Executor,
    ...args: Parameters<Executor['performValidations']>
  ) => void;
  const partitions = new WeakMap<ValidationMetadata[], Partition>();
  const splits = new WeakMap<ValidationMetadata[], Split>();
  const propertyNames = new WeakMap<Record<string, ValidationMetadata[]>, string[]>();
  const hasKeys = (record: object | undefined): boolean => {
    for (const _ in record) return true;
    return false;
  };

  const partitionOf = (metadatas: ValidationMetadata[]): Partition => {
    let partition = partitions.get(metadatas);
    if (!partition) {
      const others = metadatas.filter(
        (m) => m.type !== ValidationTypes.IS_DEFINED && m.type !== ValidationTypes.WHITELIST,
      );
      partition = {
        defined: metadatas.filter((m) => m.type === ValidationTypes.IS_DEFINED),
        others,
        hasPromiseValidation: others.some((m) => m.type === ValidationTypes.PROMISE_VALIDATION),
      };
      splits.set(others, {
        custom: others.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION),
        nested: others.filter((m) => m.type === ValidationTypes.NESTED_VALIDATION),
        conditional: others.filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION),
      });
      partitions.set(metadatas, partition);
    }
    return partition;
  };

  proto['execute'] = function execute(
    this: Executor,
    object: object,
    targetSchema: string,
    validationErrors: ValidationError[],
  ): void {
    const options = this.validatorOptions;
    if (
      !(this.metadataStorage as unknown as { hasValidationMetaData: boolean }).hasValidationMetaData &&
      options?.enableDebugMessages === true
    ) {
      console.warn('No validation metadata found. No validation will be  performed.');
    }
    const groups = options ? options.groups : undefined;
    const strictGroups = (options && options.strictGroups) || false;
    const always = (options && options.always) || false;
    const forbidUnknownValues = options?.forbidUnknownValues === undefined || options.forbidUnknownValues !== false;
    const targetMetadatas = this.metadataStorage.getTargetValidationMetadatas(
      object.constructor,
      targetSchema,
      always,
      strictGroups,
      groups,
    );
    const groupedMetadatas = this.metadataStorage.groupByPropertyName(targetMetadatas);
    if (forbidUnknownValues && !targetMetadatas.length) {
      const validationError = new ValidationErrorClass();
      if (
        !options ||
        !options.validationError ||
        options.validationError.target === undefined ||
        options.validationError.target === true
      )
        validationError.target = object;
      validationError.value = undefined;
      validationError.property = undefined as unknown as string;
      validationError.children = [];
      validationError.constraints = { unknownValue: 'an unknown value was passed to the validate function' };
      validationErrors.push(validationError);
      return;
    }
    if (options && options.whitelist) this.whitelist(object, groupedMetadatas, validationErrors);
    let names = propertyNames.get(groupedMetadatas);
    if (!names) propertyNames.set(groupedMetadatas, (names = Object.keys(groupedMetadatas)));
    for (const propertyName of names) {
      const value = (object as Record<string, unknown>)[propertyName];
      const { defined, others, hasPromiseValidation } = partitionOf(groupedMetadatas[propertyName]!);
      if (value instanceof Promise && hasPromiseValidation) {
        this.awaitingPromises.push(
          value.then((resolved) =>
            this.performValidations(object, resolved, propertyName, defined, others, validationErrors),
          ),
        );
      } else {
        this.performValidations(object, value, propertyName, defined, others, validationErrors);
      }
    }
  };

  proto['performValidations'] = function performValidations(
    this: Executor,
    object: object,
    value: unknown,
    propertyName: string,
    definedMetadatas: ValidationMetadata[],
    metadatas: ValidationMetadata[],
    validationErrors: ValidationError[],
  ): void {
    const split = splits.get(metadatas);
    if (!split)
      return originalPerform.call(this, object, value, propertyName, definedMetadatas, metadatas, validationErrors);
    // class-validator pushes an error for every property and strips the empty ones at the end
    // (`stripEmptyErrors`, which `validate` always runs). Only errors that can be non-empty are
    // pushed here: nothing else is pushed to this list meanwhile (nested objects report into
    // the error's children), so the order of the errors kept is the same.
    if (!this.conditionalValidations(object, value, split.conditional)) return;
    const validationError = this.generateValidationError(object, value, propertyName);
    const pending = this.awaitingPromises.length;
    this.validateProperty(object, value, definedMetadatas, metadatas, split, validationError);
    if (
      hasKeys(validationError.constraints) ||
      (validationError.children?.length ?? 0) > 0 ||
      this.awaitingPromises.length !== pending
    ) {
      validationErrors.push(validationError);
    }
  };

  proto['validateProperty'] = function validateProperty(
    this: Executor,
    object: object,
    value: unknown,
    definedMetadatas: ValidationMetadata[],
    metadatas: ValidationMetadata[],
    split: Split,
    validationError: ValidationError,
  ): void {
    this.customValidations(object, value, definedMetadatas, validationError);
    this.mapContexts(object, value, definedMetadatas, validationError);
    const options = this.validatorOptions;
    if (value === undefined && options && options.skipUndefinedProperties === true) return;
    if (value === null && options && options.skipNullProperties === true) return;
    if ((value === null || value === undefined) && options && options.skipMissingProperties === true) return;
    this.customValidations(object, value, split.custom, validationError);
    this.nestedValidations(value, split.nested, validationError);
    this.mapContexts(object, value, metadatas, validationError);
    this.mapContexts(object, value, split.custom, validationError);
  };
}

/**
 * Puts class-validator's own metadata lookups and executor back, as if the patch had never been
 * installed (the equivalence test validates with both; `cacheValidationMetadata` installs again).
 */
export function uninstallValidationMetadataCache(): void {
  while (restorers.length > 0) restorers.pop()!();
  installed = false;
}
