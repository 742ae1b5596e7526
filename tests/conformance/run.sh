#!/usr/bin/env bash
# Run every client scenario of the official conformance suite against our driver,
# one at a time (the suite's --suite mode runs them in parallel and ignores the client's
# exit code), and compare the outcome with tests/conformance/expected-failures.yml.
#
#   tests/conformance/run.sh [scenario…]    (default: every client scenario)
#   CONFORMANCE_TIMEOUT_MS=20000            per-scenario limit for the client (default 20 s)
#   CONFORMANCE_BASELINE=<yml>              baseline (default tests/conformance/expected-failures.yml)
#   CONFORMANCE_COMMAND="node tests/conformance/client.mjs"   client command; the runner
#                                           splits it on spaces and appends the server URL
#
# A scenario passes when the runner exits 0 (no FAILURE or WARNING check, no client crash or
# timeout), at least one check succeeded, and the driver did not exit 2 ("not implemented").
# We do the baseline comparison ourselves because 0.1.16's --expected-failures looks only at
# the checks: a client that dies before sending anything "passes" `initialize` (no checks, so
# no failed check), and a listed scenario that crashed that way is reported as stale.
#
# Exit 0 when every failure is listed and every listed scenario failed; 1 otherwise.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"   # the client command is relative to the repo root
# conformance 0.1.16 imports fs.globSync, so it needs Node 22: node_modules/.bin/node.
export PATH="$ROOT/node_modules/.bin:$PATH"
OUT="$ROOT/test-results/conformance"
BASELINE=${CONFORMANCE_BASELINE:-$ROOT/tests/conformance/expected-failures.yml}
CMD=${CONFORMANCE_COMMAND:-node tests/conformance/client.mjs}
TIMEOUT_MS=${CONFORMANCE_TIMEOUT_MS:-20000}

die() { echo "conformance: $*" >&2; exit 1; }
[[ $(node -p 'process.versions.node.split(".")[0]' 2>/dev/null) -ge 22 ]] ||
  die "needs Node >= 22 at node_modules/.bin/node (npm dev dependency node@22)"

mapfile -t all < <(conformance list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
((${#all[@]} > 0)) || die "could not list the client scenarios"
known() { printf '%s\n' "${all[@]}" | grep -qxF -- "$1"; }
scenarios=("${all[@]}")
if (($# > 0)); then
  scenarios=("$@")
  for s in "$@"; do known "$s" || die "unknown client scenario: $s"; done
fi
# The `client:` list of the baseline: every "  - name" line, comments dropped.
mapfile -t expected < <(sed -n 's/^[[:space:]]*-[[:space:]]*\([^[:space:]#]*\).*/\1/p' "$BASELINE")

rm -rf "$OUT"; mkdir -p "$OUT/logs"
listed() { local x; for x in "${expected[@]}"; do [[ $x == "$1" ]] && return 0; done; return 1; }

passed=0 failed=0 problems=()
for s in "${scenarios[@]}"; do
  log="$OUT/logs/${s//\//_}.log"
  conformance client --command "$CMD" --scenario "$s" --timeout "$TIMEOUT_MS" -o "$OUT/runs" >"$log" 2>&1
  rc=$?
  checks=$(sed -n 's/^Passed: \([0-9]*\/[0-9]*\), \([0-9]*\) failed, \([0-9]*\) warnings.*/\1 ok, \2 failed, \3 warnings/p' "$log" | head -n 1)
  ok=no
  if ((rc == 0)) && [[ $checks =~ ^[1-9] ]] && ! grep -q '^Client exited with code 2$' "$log"; then ok=yes; fi
  if [[ $ok == yes ]]; then
    passed=$((passed + 1))
    if listed "$s"; then verdict="XPASS"; problems+=("stale baseline entry (now passes): $s"); else verdict="PASS"; fi
  else
    failed=$((failed + 1))
    grep -q '^Client exited with code 2$' "$log" && checks="${checks:-no checks}; not implemented"
    grep -q '^Client timed out' "$log" && checks="${checks:-no checks}; client timed out"
    if listed "$s"; then verdict="xfail"; else verdict="FAIL"; problems+=("unexpected failure: $s (log: ${log#"$ROOT"/})"); fi
  fi
  printf '%-5s %-45s %s\n' "$verdict" "$s" "${checks:-no checks} (runner exit $rc)" | tee -a "$OUT/summary.txt"
done

# Entries that name no scenario (typos, or scenarios dropped by a new suite version).
for e in "${expected[@]}"; do
  known "$e" || problems+=("baseline names an unknown scenario: $e")
done

for p in "${problems[@]}"; do echo "conformance: $p"; done | tee -a "$OUT/summary.txt"
echo "conformance: $passed passed, $failed failed" | tee -a "$OUT/summary.txt"
((${#problems[@]} == 0))
