import { ProductLocale, ProductTranslation } from '@brand/core';

export interface ProductLocaleWire {
  id: number;
  code: string;
  name: string;
}

export function presentProductLocale(locale: ProductLocale): ProductLocaleWire {
  return { id: locale.id, code: locale.code, name: locale.name };
}

/** A product's text in one locale, in the shape the product sync takes it. */
export interface ProductTranslationWire {
  product_locale_id: number;
  /** Null only if the locale could not be loaded. */
  product_locale_code: string | null;
  name: string;
  description: string | null;
  meta_title: string | null;
  meta_description: string | null;
}

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
