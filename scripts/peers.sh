#!/usr/bin/env bash
# Start or stop the local server-everything peers used by the integration tests.
#
#   scripts/peers.sh start    # Streamable HTTP on $MCP_PEER_HTTP_PORT (38011, /mcp)
#                             # legacy HTTP+SSE on $MCP_PEER_SSE_PORT (38012, /sse + /message)
#                             # the fault-injecting proxy in front of the first, on
#                             # $MCP_PEER_FAULT_PORT (38050, /<fault>/mcp; tests/peers/fault-proxy.mjs)
#                             # a 2026-07-28-only server on $MCP_PEER_MODERN_PORT (38013, /mcp) and a
#                             # modern + legacy one on $MCP_PEER_DUAL_PORT (38016, /mcp), both built
#                             # on @modelcontextprotocol/server 2.x (tests/peers/modern-server.mjs)
#                             # an OAuth authorization server with a protected MCP server on
#                             # $MCP_PEER_OAUTH_PORT (38060; tests/peers/oauth-server.mjs)
#   scripts/peers.sh stop
#   scripts/peers.sh status
#
# Both run under the system Node (20) through tests/peers/loopback.mjs, so they bind
# 127.0.0.1 only. PIDs and logs live in test-results/peers/. `start` is idempotent: a peer
# whose recorded PID is still alive is left running. We only ever signal PIDs we recorded.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR="$ROOT/test-results/peers"
EVERYTHING="$ROOT/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
PROXY="$ROOT/tests/peers/fault-proxy.mjs"
MODERN="$ROOT/tests/peers/modern-server.mjs"
OAUTH="$ROOT/tests/peers/oauth-server.mjs"
PRELOAD="$ROOT/tests/peers/loopback.mjs"
# The system Node, even when node_modules/.bin (Node 22) is first on PATH, as under `npm run`.
NODE_BIN=${PEERS_NODE:-$(type -ap node | grep -vF "$ROOT/node_modules/" | head -n 1)}
HTTP_PORT=${MCP_PEER_HTTP_PORT:-38011}
SSE_PORT=${MCP_PEER_SSE_PORT:-38012}
FAULT_PORT=${MCP_PEER_FAULT_PORT:-38050}
MODERN_PORT=${MCP_PEER_MODERN_PORT:-38013}
DUAL_PORT=${MCP_PEER_DUAL_PORT:-38016}
OAUTH_PORT=${MCP_PEER_OAUTH_PORT:-38060}
WAIT_SECS=${PEERS_WAIT_SECS:-15}

# name entry argument port
PEERS=("everything-http $EVERYTHING streamableHttp $HTTP_PORT" "everything-sse $EVERYTHING sse $SSE_PORT"
       "fault-proxy $PROXY proxy $FAULT_PORT" "modern-only $MODERN modern $MODERN_PORT" "modern-dual $MODERN dual $DUAL_PORT"
       "oauth $OAUTH oauth $OAUTH_PORT")

die() { echo "peers: $*" >&2; exit 1; }

# A recorded PID counts only if it is alive *and* still runs one of our peer scripts, so a
# stale pid file whose number was recycled by an unrelated process is never signalled.
alive() {
  local pid=$1
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null &&
    tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline" | grep -qE 'server-everything|fault-proxy|modern-server|oauth-server'
}

# The PID of a peer from this checkout serving `transport` on `port`, found through /proc.
# Lets start/stop recover peers whose pid file is gone (e.g. test-results/ was wiped).
find_peer() {
  local entry=$1 transport=$2 port=$3 p args
  for p in /proc/[0-9]*; do
    args=$(tr '\0' '\n' 2>/dev/null <"$p/cmdline") || continue
    grep -qxF -- "$entry" <<<"$args" && [[ $(tail -n 1 <<<"$args") == "$transport" ]] &&
      tr '\0' '\n' 2>/dev/null <"$p/environ" | grep -qx "PORT=$port" && { echo "${p#/proc/}"; return; }
  done
  return 0
}

# Any HTTP status means the server is accepting requests; a 404 on an unused path is the
# cheapest probe (GET /sse would open a long-lived stream).
answers() { [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$1/ready-probe") != 000 ]]; }

start_one() {
  local name=$1 entry=$2 transport=$3 port=$4 pidf="$DIR/$1.pid" log="$DIR/$1.log" pid= oldport=
  [[ -f $pidf ]] && read -r pid oldport <"$pidf"
  if ! alive "$pid"; then
    pid=$(find_peer "$entry" "$transport" "$port"); oldport=$port
    [[ -n $pid ]] && echo "$pid $port" >"$pidf"
  fi
  if alive "$pid"; then
    [[ $oldport == "$port" ]] || die "$name is running on port $oldport, not $port; run '$0 stop' first"
    echo "peers: $name already running (pid $pid, port $port)"
    return
  fi
  answers "$port" && die "port $port is already taken by another process; set MCP_PEER_*_PORT"
  [[ -f $entry ]] || die "missing $entry (npm dev dependencies not installed?)"
  # nohup + own log: the peer must outlive this script and not write to the caller's tty.
  PORT=$port UPSTREAM="http://127.0.0.1:$HTTP_PORT" nohup "$NODE_BIN" --import "$PRELOAD" "$entry" "$transport" >"$log" 2>&1 </dev/null &
  pid=$!
  echo "$pid $port" >"$pidf"
  local deadline=$((SECONDS + WAIT_SECS))
  until answers "$port"; do
    kill -0 "$pid" 2>/dev/null || { tail -n 20 "$log" >&2; rm -f "$pidf"; die "$name exited during start-up (log: $log)"; }
    if ((SECONDS >= deadline)); then
      kill "$pid" 2>/dev/null || true; rm -f "$pidf"
      tail -n 20 "$log" >&2
      die "$name did not answer on 127.0.0.1:$port within ${WAIT_SECS}s (log: $log)"
    fi
    sleep 0.2
  done
  echo "peers: $name up (pid $pid, http://127.0.0.1:$port)"
}

stop_one() {
  local name=$1 pidf="$DIR/$1.pid" pid=
  [[ -f $pidf ]] && read -r pid _ <"$pidf"
  alive "$pid" || pid=$(find_peer "$2" "$3" "$4")
  if alive "$pid"; then
    kill "$pid"   # no SIGTERM handler in server-everything; default action exits in ~1 s
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
    echo "peers: $name stopped (pid $pid)"
  else
    echo "peers: $name not running"
  fi
  rm -f "$pidf"
}

[[ -x $NODE_BIN ]] || die "no system node found (set PEERS_NODE)"
mkdir -p "$DIR"
case ${1:-} in
  start)  for p in "${PEERS[@]}"; do start_one $p; done ;;
  stop)   for p in "${PEERS[@]}"; do stop_one $p; done ;;
  status)
    rc=0
    for p in "${PEERS[@]}"; do
      set -- $p; pid=; [[ -f $DIR/$1.pid ]] && read -r pid _ <"$DIR/$1.pid"
      alive "$pid" || pid=$(find_peer "$2" "$3" "$4")
      if alive "$pid"; then echo "$1 running (pid $pid, port $4)"; else echo "$1 stopped"; rc=3; fi
    done
    exit $rc ;;
  *) echo "usage: $0 start|stop|status" >&2; exit 2 ;;
esac
