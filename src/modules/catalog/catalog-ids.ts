import { randomBytes } from 'node:crypto';

// Ids of rows a catalog upload creates in bulk: UUID version 7 layout (RFC 9562: 48-bit
// millisecond time, then a counter and random bits), generated here because PostgreSQL 15 has no
// uuidv7(). Time-ordered ids append to the primary-key and link indexes instead of landing at
// random pages, which keeps a 50,000-item upload's index writes local (bench/catalog.ts).
let lastMs = 0;
let counter = 0;

export function newSortableId(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    ms = lastMs;
    counter += 1;
    if (counter > 0xfff) {
      // 4096 ids in one millisecond: borrow the next millisecond to stay ordered.
      lastMs += 1;
      ms = lastMs;
      counter = 0;
    }
  } else {
    lastMs = ms;
    counter = 0;
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | ((counter >> 8) & 0x0f);
  bytes[7] = counter & 0xff;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80; // 16 random bytes: byte 8 is there
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
