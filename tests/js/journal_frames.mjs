// Test-only reader of the core's journal framing (core/src/persistence/
// journal_frame.hpp), to look at what the core wrote without the core.
import { join } from 'node:path';

// CRC-32 (IEEE), as core/src/persistence/crc32.cpp.
const table = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes, seed = 0) {
  let c = (seed ^ 0xffffffff) >>> 0;
  for (const b of bytes) c = table[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

// The file of a stream, named as FileJournal::file_name names it.
export function journalFile(dir, name, stream = `mailroom-dead-letters-${name}`) {
  let escaped = '';
  for (const byte of Buffer.from(stream, 'utf8')) {
    const c = String.fromCharCode(byte);
    escaped += /[A-Za-z0-9_-]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return join(dir, `${escaped}.journal`);
}

// Intact frames in order, stopping at the first damage (damaged: true).
export function frames(bytes) {
  const records = [];
  if (bytes.length < 20 || bytes.subarray(0, 4).toString('latin1') !== 'MRJL') return { records, damaged: bytes.length > 0 };
  let at = 20;
  while (at < bytes.length) {
    if (bytes.length - at < 16) return { records, damaged: true };
    const length = bytes.readUInt32LE(at);
    const sequence = Number(bytes.readBigUInt64LE(at + 4));
    const crc = bytes.readUInt32LE(at + 12);
    const end = at + 16 + length;
    if (end > bytes.length) return { records, damaged: true };
    if (crc32(bytes.subarray(at + 16, end), crc32(bytes.subarray(at + 4, at + 12))) !== crc) return { records, damaged: true };
    records.push({ sequence, offset: at, end, payload: bytes.subarray(at + 16, end).toString('utf8') });
    at = end;
  }
  return { records, damaged: false };
}

