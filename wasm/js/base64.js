// Bytes ↔ base64 text for the binary payloads of tagged JSON (ArrayBuffer,
// DataView, float typed arrays), with the atob/btoa that Node and browsers share.
const CHUNK = 0x8000;

export function bytesToBase64(bytes) {
  let binary = '';
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

// Throws SyntaxError for text that is not base64.
export function bytesFromBase64(text) {
  if (typeof text !== 'string') throw new SyntaxError('tagged JSON: bytes must be base64 text');
  let binary;
  try {
    binary = atob(text);
  } catch {
    throw new SyntaxError('tagged JSON: bytes are not valid base64');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
