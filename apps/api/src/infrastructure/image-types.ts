/**
 * The image formats the platform accepts, how to recognise their bytes, and the file extension
 * the blob store files them under. SVG is deliberately absent: an SVG is a document that can
 * carry scripts and external references, and the API serves images from its own origin.
 */
export interface ImageType {
  contentType: string;
  extension: string;
  label: string;
  /** Whether the bytes start like a file of this type (the "magic number"). */
  matches(bytes: Uint8Array): boolean;
}

const ascii = (bytes: Uint8Array, start: number, end: number): string =>
  String.fromCharCode(...bytes.subarray(start, end));
const startsWith = (bytes: Uint8Array, prefix: readonly number[]): boolean =>
  prefix.every((byte, i) => bytes[i] === byte);

/** ISO-BMFF (AVIF): an `ftyp` box whose major or a compatible brand is `avif` (still) or `avis` (sequence). */
function isAvif(bytes: Uint8Array): boolean {
  if (bytes.length < 16 || ascii(bytes, 4, 8) !== 'ftyp') return false;
  const boxSize = Math.min(((bytes[0]! << 24) | (bytes[1]! << 16) | (bytes[2]! << 8) | bytes[3]!) >>> 0, bytes.length);
  const brands = [ascii(bytes, 8, 12)];
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) brands.push(ascii(bytes, offset, offset + 4));
  return brands.some((brand) => brand === 'avif' || brand === 'avis');
}

export const IMAGE_TYPES: readonly ImageType[] = [
  { contentType: 'image/jpeg', extension: 'jpg', label: 'JPEG', matches: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  {
    contentType: 'image/png',
    extension: 'png',
    label: 'PNG',
    matches: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  {
    contentType: 'image/gif',
    extension: 'gif',
    label: 'GIF',
    matches: (b) => b.length >= 6 && ['GIF87a', 'GIF89a'].includes(ascii(b, 0, 6)),
  },
  {
    contentType: 'image/webp',
    extension: 'webp',
    label: 'WebP',
    matches: (b) => b.length >= 12 && ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP',
  },
  { contentType: 'image/avif', extension: 'avif', label: 'AVIF', matches: isAvif },
];

/** Spellings servers use for the accepted types. */
const ALIASES: Readonly<Record<string, string>> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

/** The accepted type a Content-Type header names (parameters and case ignored), or null. */
export function imageTypeOf(contentTypeHeader: string | undefined): ImageType | null {
  const essence = (contentTypeHeader ?? '').split(';')[0]!.trim().toLowerCase();
  const canonical = ALIASES[essence] ?? essence;
  return IMAGE_TYPES.find((type) => type.contentType === canonical) ?? null;
}

/** The accepted type stored under a file extension, or null. */
export function imageTypeOfExtension(extension: string): ImageType | null {
  return IMAGE_TYPES.find((type) => type.extension === extension) ?? null;
}

/** "image/jpeg, image/png, …" for messages and the Accept header. */
export const ACCEPTED_CONTENT_TYPES = IMAGE_TYPES.map((type) => type.contentType).join(', ');
