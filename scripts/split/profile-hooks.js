
// --- The split's profile (scripts/split/glue.mjs appends this to the glue of an
// instrumented core, scripts/split/instrument.mjs): each function the core enters, and
// each byte of its static data it reads or writes (and the function that did), go to
// globalThis.__mcpWasmProfile = { enter(ordinal), data(address, ordinal), range: [low, high] }.
const profile = globalThis.__mcpWasmProfile;
const touched = (address, bytes, ordinal) => {
  const [low, high] = profile.range;
  if (bytes === 0 || address + bytes <= low || address >= high) return;
  for (let at = Math.max(address, low), end = Math.min(address + bytes, high); at < end; at++) profile.data(at, ordinal);
};
__split.m = (ordinal) => profile.enter(ordinal);
__split.a = (pointer, offset, bytes, ordinal) => {
  touched((pointer >>> 0) + offset, bytes, ordinal);
  return pointer;
};
__split.c = (dest, source, size, ordinal) => {
  touched(source >>> 0, size >>> 0, ordinal);
  touched(dest >>> 0, size >>> 0, ordinal);
  new Uint8Array(wasm.memory.buffer).copyWithin(dest >>> 0, source >>> 0, (source >>> 0) + (size >>> 0));
};
__split.f = (dest, value, size, ordinal) => {
  touched(dest >>> 0, size >>> 0, ordinal);
  new Uint8Array(wasm.memory.buffer).fill(value, dest >>> 0, (dest >>> 0) + (size >>> 0));
};
