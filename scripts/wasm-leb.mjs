// LEB128, as the wasm binary format writes its sizes, counts and indices:
// shared by the scripts that rewrite a section of a built module
// (scripts/short-imports.mjs, bench/first-call-only.mjs).

/** The unsigned number at `at` in `bytes`, and the offset after it. */
export function readU32(bytes, at) {
  let value = 0, shift = 0, byte;
  do {
    byte = bytes[at++];
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
  } while (byte & 0x80);
  return [value, at];
}

/** `value` written as unsigned LEB128. */
export function u32(value) {
  const out = [];
  do {
    let byte = value & 0x7f;
    value = Math.floor(value / 128);
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return Buffer.from(out);
}
