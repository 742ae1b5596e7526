// The table slots the primary half can never call through (scripts/split/split.mjs). A function
// that moved to the rest keeps a stub in the primary for each way the primary can reach it; a
// slot of the table is one. But a slot that holds a moved function is only called through by
// code that has its number: a constant of the code, or a word of the static data (a vtable),
// or a value either of them handed on. When no constant of the primary's code and no word of
// the data the primary keeps holds it, only the rest can have it (its code, or data that moved
// with it), and the rest, once in, writes the moved function into the slot itself. Such a
// slot needs no stub: it holds `__split_absent`, which traps (as a null slot would), and the
// stub, if nothing else calls it, goes.
import { codeConstants, dataWords } from "./data.mjs";

/**
 * The numbers of the slots, among `segments` ({ offset, names }: the table's own element
 * segments), that hold a function of `moved` (a Set of names) and that neither `primaryText`
 * (the primary's code as binaryen prints it) nor `data` (the primary's data segments,
 * { offset, data }) names.
 */
export function unreachableSlots(segments, moved, primaryText, data) {
  // Vtables and other tables of slots are 4-byte aligned in memory.
  const named = new Set([...codeConstants(primaryText), ...dataWords(data)]);
  const slots = new Set();
  for (const { offset, names } of segments) {
    names.forEach((name, i) => {
      if (moved.has(name) && !named.has(offset + i)) slots.add(offset + i);
    });
  }
  return slots;
}
