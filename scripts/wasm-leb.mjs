// LEB128, as the wasm binary format writes its sizes, counts and indices:
// shared by the scripts that rewrite a section of a built module
// (scripts/short-imports.mjs, scripts/short-exports.mjs, scripts/split/late-text.mjs,
// bench/first-call-only.mjs).

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

/** `value` written as signed LEB128, as an `i32.const` holds it. */
export function s32(value) {
  const out = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && !(byte & 0x40)) || (value === -1 && byte & 0x40);
    out.push(done ? byte : byte | 0x80);
    if (done) return Buffer.from(out);
  }
}

/** A length-prefixed UTF-8 name, as the import and export sections write one. */
export function wasmName(text) {
  const bytes = Buffer.from(text, "utf8");
  return Buffer.concat([u32(bytes.length), bytes]);
}

/**
 * `wasm` with the section of id `id` replaced: `rewrite(wasm, start, end)` gets where its
 * contents lie and returns the new contents. Every other section is kept byte for byte.
 */
export function rewriteSection(wasm, id, rewrite) {
  if (wasm.readUInt32LE(0) !== 0x6d736100) throw new Error("not a wasm module");
  const parts = [wasm.subarray(0, 8)];
  let at = 8;
  while (at < wasm.length) {
    const [size, start] = readU32(wasm, at + 1);
    const end = start + size;
    if (wasm[at] === id) {
      const contents = rewrite(wasm, start, end);
      parts.push(Buffer.from([id]), u32(contents.length), contents);
    } else {
      parts.push(wasm.subarray(at, end));
    }
    at = end;
  }
  return Buffer.concat(parts);
}

/** The length-prefixed UTF-8 name at `at` in `bytes`, and the offset after it. */
export function readName(bytes, at) {
  const [length, start] = readU32(bytes, at);
  return [bytes.subarray(start, start + length).toString("utf8"), start + length];
}
