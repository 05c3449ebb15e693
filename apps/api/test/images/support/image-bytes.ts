import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A valid PNG of one colour (8-bit RGB, no interlace); different colours give different bytes. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, adaptive filter, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function segment(marker: number, data: number[]): number[] {
  const length = data.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...data];
}

/**
 * A valid baseline JPEG: an 8×8 greyscale block of mid grey. With every sample at 128 the
 * level-shifted block is all zero, so the one coded block is "DC difference 0, end of block";
 * the Huffman tables hold just those two symbols (one 1-bit code each). `comment` (a COM
 * segment) varies the bytes without changing the picture.
 */
export function greyJpeg(comment = ''): Buffer {
  const text = [...Buffer.from(comment, 'latin1')];
  return Buffer.from([
    0xff,
    0xd8, // SOI
    ...(text.length > 0 ? segment(0xfe, text) : []),
    ...segment(0xdb, [0x00, ...Array<number>(64).fill(1)]), // DQT: table 0, 8-bit, all ones
    ...segment(0xc0, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]), // SOF0: 8-bit, 8×8, 1 component (id 1, 1×1, table 0)
    ...segment(0xc4, [0x00, 1, ...Array<number>(15).fill(0), 0x00]), // DHT DC 0: one 1-bit code → category 0
    ...segment(0xc4, [0x10, 1, ...Array<number>(15).fill(0), 0x00]), // DHT AC 0: one 1-bit code → EOB
    ...segment(0xda, [1, 1, 0x00, 0, 63, 0]), // SOS: component 1, tables 0/0, spectral 0–63
    0x3f, // bits "0" (DC 0) "0" (EOB), padded with ones
    0xff,
    0xd9, // EOI
  ]);
}
