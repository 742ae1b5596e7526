// Which of the functions that leave the primary go to a part of their own (scripts/split/split.mjs):
// those that functions named by a pattern reach through direct calls and that nothing else
// reaches, and the part's entries: functions named by a second pattern, which code outside the
// part may call, through a stub that loads the part first (they run only when the part's job
// is asked for, as OAuth's set-up for a connection with `auth`, which loads the part ahead).
// Otherwise code outside the part never calls into it directly, only through the function
// table, whose slots hold such stubs until the part is in.
import { binaryen as B, definedFunctions } from "./binaryen.mjs";
import { each } from "./expressions.mjs";

/** The names of the functions of `moved` (names) that belong to the part `pattern` roots. */
export function exclusivePart(module, moved, pattern, entries) {
  const callees = new Map();
  for (const fn of definedFunctions(module)) {
    const out = new Set();
    each(fn.body, (expression, id, info) => {
      if (id === B.CallId) out.add(info.target);
      else if (id === B.RefFuncId) out.add(B.getExpressionInfo(expression).func);
    });
    callees.set(fn.name, out);
  }
  const reach = (roots, stop = new Set()) => {
    const seen = new Set(roots);
    const stack = [...roots];
    while (stack.length) {
      for (const callee of callees.get(stack.pop()) ?? []) {
        if (!seen.has(callee) && !stop.has(callee)) seen.add(callee), stack.push(callee);
      }
    }
    return seen;
  };
  const roots = [...moved].filter((name) => pattern.test(name));
  const doors = new Set(roots.filter((name) => entries.test(name)));
  const fromRoots = reach(roots);
  // Everything else: the primary's functions, and what left it that the part's roots do not
  // reach; what they reach, short of the entries.
  const others = [...callees.keys()].filter((name) => !moved.has(name) || !fromRoots.has(name));
  const fromOthers = reach(others, doors);
  return new Set([...fromRoots].filter((name) => moved.has(name) && (doors.has(name) || !fromOthers.has(name))));
}
