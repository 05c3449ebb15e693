import { ProductLocale, ProductTranslation } from '@brand/core';
import { Static, Type, component, integer, nullable, string } from '../http/wire-schema';

export const ProductLocaleSchema = component(
  'ProductLocale',
  Type.Object({
    id: integer(),
    code: string(),
    name: string(),
  }),
);
export type ProductLocaleWire = Static<typeof ProductLocaleSchema>;

export function presentProductLocale(locale: ProductLocale): ProductLocaleWire {
  return { id: locale.id, code: locale.code, name: locale.name };
}

/** A product's text in one locale, in the shape the product sync takes it. */
export const ProductTranslationSchema = component(
  'ProductTranslation',
  Type.Object({
    product_locale_id: integer(),
    // Null only if the locale could not be loaded.
    product_locale_code: nullable(string()),
    name: string(),
    description: nullable(string()),
    meta_title: nullable(string()),
    meta_description: nullable(string()),
  }),
);
export type ProductTranslationWire = Static<typeof ProductTranslationSchema>;

export function presentProductTranslation(
  translation: ProductTranslation,
  locales: ReadonlyMap<number, ProductLocale>,
): ProductTranslationWire {
  return {
    product_locale_id: translation.localeId,
    product_locale_code: locales.get(translation.localeId)?.code ?? null,
    name: translation.name,
    description: translation.description,
    meta_title: translation.metaTitle,
    meta_description: translation.metaDescription,
  };
}
