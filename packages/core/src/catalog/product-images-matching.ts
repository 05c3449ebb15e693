import { ProductImage, Variant } from './catalog.entities';

/** What decides whether a requested image already exists: its `existance_key` when sent, else its URL. */
export interface ImageIdentity {
  url: string;
  existanceKey: string | null;
}

/** The identity as one string, for finding repeats within a request. */
export function identityKey(identity: ImageIdentity): string {
  return identity.existanceKey !== null ? `existance_key ${identity.existanceKey}` : `url ${identity.url}`;
}

/**
 * Pairs each requested image with the stored image of the product it stands for, each stored
 * image at most once. An `existance_key` decides alone when it is sent (the bytes behind a URL
 * may change while the URL stays, and expiring URLs differ on every call); otherwise the URL
 * decides, preferring stored images that were not made under a key.
 */
export function matchStoredImages(
  stored: readonly ProductImage[],
  wanted: readonly ImageIdentity[],
): (ProductImage | null)[] {
  const claimed = new Set<number>();
  const claim = (image: ProductImage | undefined): ProductImage | null => {
    if (!image) return null;
    claimed.add(image.id);
    return image;
  };
  return wanted.map(({ url, existanceKey }) => {
    const free = stored.filter((image) => !claimed.has(image.id));
    if (existanceKey !== null) return claim(free.find((image) => image.existanceKey === existanceKey));
    return claim(
      free.find((image) => image.sourceUrl === url && image.existanceKey === null) ??
        free.find((image) => image.sourceUrl === url),
    );
  });
}

const normalised = (text: string): string => text.trim().toLowerCase();

/**
 * Ids of the variants whose attributes hold every `name → code` pair, in variant order.
 * Attribute names and codes compare case-insensitively and without surrounding blanks: ERPs
 * and spreadsheets disagree about `Color: BLACK` versus `color: black`, and two variants of
 * one product never differ only in case.
 */
export function variantsMatching(variants: readonly Variant[], pairs: Readonly<Record<string, string>>): number[] {
  const wanted = Object.entries(pairs).map(([name, code]) => [normalised(name), normalised(code)] as const);
  return [...variants]
    .sort((a, b) => a.position - b.position || a.id - b.id)
    .filter((variant) => {
      const attributes = new Map(
        Object.entries(variant.attributes).map(([name, value]) => [normalised(name), normalised(value)]),
      );
      return wanted.every(([name, code]) => attributes.get(name) === code);
    })
    .map((variant) => variant.id);
}
