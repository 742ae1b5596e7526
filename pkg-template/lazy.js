// The loaders of the parts the core module loads on first use, as each entry
// hands them to it: every loader runs at most once at a time, its module is
// kept once loaded, and a failed load (a network error) is tried again on the
// next call that needs the part.
export function lazyParts(loaders) {
  const parts = {};
  for (const [name, load] of Object.entries(loaders)) {
    let pending;
    parts[name] = () => (pending ??= load().catch((error) => {
      pending = undefined;
      throw error;
    }));
  }
  return parts;
}
