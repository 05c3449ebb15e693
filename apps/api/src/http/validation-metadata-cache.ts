import { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { getMetadataStorage } from 'class-validator';

type Lookup = (
  targetConstructor: Function,
  targetSchema: string,
  always: boolean,
  strictGroups: boolean,
  groups?: string[],
) => ValidationMetadata[];

let installed = false;

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
  if (installed) return;
  installed = true;
  const storage = getMetadataStorage();
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const lookups = new Map<Function, Map<string, ValidationMetadata[]>>();
  const groupings = new WeakMap<ValidationMetadata[], ReturnType<typeof group>>();

  storage.getTargetValidationMetadatas = (targetConstructor, targetSchema, always, strictGroups, groups) => {
    if (groups && groups.length > 0) return lookup(targetConstructor, targetSchema, always, strictGroups, groups);
    const key = `${targetSchema}\u0000${always}\u0000${strictGroups}`;
    let perClass = lookups.get(targetConstructor);
    if (!perClass) lookups.set(targetConstructor, (perClass = new Map()));
    let found = perClass.get(key);
    if (!found) perClass.set(key, (found = lookup(targetConstructor, targetSchema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let grouped = groupings.get(metadata);
    if (!grouped) groupings.set(metadata, (grouped = group(metadata)));
    return grouped;
  };
}
