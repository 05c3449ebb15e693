import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';

/**
 * class-transformer keeps `@Type(() => X)` metadata in a singleton that its entry point does not
 * export (typestack/class-transformer#563). class-validator-jsonschema needs it to describe nested
 * DTO arrays as arrays of X rather than of Object, so it is read from the CommonJS build directly.
 */
export const classTransformerMetadata =
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a path outside the package's entry point
  (require('class-transformer/cjs/storage') as { defaultMetadataStorage: MetadataStorage }).defaultMetadataStorage;
