#!/usr/bin/env bash
# Start or stop the local peers used by the integration tests, each on a port the OS picks
# (a fixed port in the ephemeral range can be held by an outgoing connection):
#
#   scripts/peers.sh start    # server-everything over Streamable HTTP (/mcp) and legacy HTTP+SSE
#                             # (/sse + /message); the fault-injecting proxy in front of the first
#                             # (/<fault>/mcp; tests/peers/fault-proxy.mjs); a 2026-07-28-only server
#                             # and a modern + legacy one (/mcp), both built on
#                             # @modelcontextprotocol/server 2.x (tests/peers/modern-server.mjs); an
#                             # OAuth authorization server with a protected MCP server
#                             # (tests/peers/oauth-server.mjs)
#   scripts/peers.sh env      # where they listen, as shell exports (test-results/peers/env):
#                             #   eval "$(bash scripts/peers.sh env)"   before running one tier by hand
#   scripts/peers.sh stop
#   scripts/peers.sh status
#
# MCP_PEER_HTTP_PORT, MCP_PEER_SSE_PORT, MCP_PEER_FAULT_PORT, MCP_PEER_MODERN_PORT,
# MCP_PEER_DUAL_PORT and MCP_PEER_OAUTH_PORT pin a peer to a port instead.
#
# All run under the system Node (20) through tests/peers/loopback.mjs, so they bind
# 127.0.0.1 only. PIDs, ports and logs live in test-results/peers/. `start` is idempotent: a
# peer whose recorded PID is still alive is left running, on its port. We only ever signal
# PIDs we recorded or found running this checkout's peer scripts.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
DIR="$ROOT/test-results/peers"
EVERYTHING="$ROOT/node_modules/@modelcontextprotocol/server-everything/dist/index.js"
PROXY="$ROOT/tests/peers/fault-proxy.mjs"
MODERN="$ROOT/tests/peers/modern-server.mjs"
OAUTH="$ROOT/tests/peers/oauth-server.mjs"
PRELOAD="$ROOT/tests/peers/loopback.mjs"
# server-everything does not say which port the OS gave it; this preload does.
ANNOUNCE="$ROOT/tests/peers/announce-port.mjs"
ENV_FILE="$DIR/env"
# The system Node, even when node_modules/.bin (Node 22) is first on PATH, as under `npm run`.
NODE_BIN=${PEERS_NODE:-$(type -ap node | grep -vF "$ROOT/node_modules/" | head -n 1)}
HTTP_PORT=${MCP_PEER_HTTP_PORT:-0}
SSE_PORT=${MCP_PEER_SSE_PORT:-0}
FAULT_PORT=${MCP_PEER_FAULT_PORT:-0}
MODERN_PORT=${MCP_PEER_MODERN_PORT:-0}
DUAL_PORT=${MCP_PEER_DUAL_PORT:-0}
OAUTH_PORT=${MCP_PEER_OAUTH_PORT:-0}
WAIT_SECS=${PEERS_WAIT_SECS:-15}

# name entry argument port (0: the OS picks)
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

# The PID of a peer from this checkout serving `transport`, found through /proc. Lets
# start/stop recover peers whose pid file is gone (e.g. test-results/ was wiped).
find_peer() {
  local entry=$1 transport=$2 p args
  for p in /proc/[0-9]*; do
    args=$(tr '\0' '\n' 2>/dev/null <"$p/cmdline") || continue
    grep -qxF -- "$entry" <<<"$args" && [[ $(tail -n 1 <<<"$args") == "$transport" ]] && { echo "${p#/proc/}"; return; }
  done
  return 0
}

# The recorded PID and port of a peer, as "pid port".
recorded() { [[ -f $DIR/$1.pid ]] && cat "$DIR/$1.pid" || true; }
port_of() { local _pid port; read -r _pid port <<<"$(recorded "$1")"; echo "$port"; }

# Any HTTP status means the server is accepting requests; a 404 on an unused path is the
# cheapest probe (GET /sse would open a long-lived stream).
answers() { [[ $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$1/ready-probe") != 000 ]]; }

# Every peer names its origin on stderr once it listens, also when the OS picked the port.
announced_port() { { grep -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$1" 2>/dev/null || true; } | head -n 1 | sed 's/.*://'; }

kill_peer() {
  local pid=$1
  kill "$pid"   # no SIGTERM handler in server-everything; default action exits in ~1 s
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
}

start_one() {
  local name=$1 entry=$2 transport=$3 port=$4 pidf="$DIR/$1.pid" log="$DIR/$1.log" pid= oldport= upstream=
  read -r pid oldport <<<"$(recorded "$name")"
  [[ $name == fault-proxy ]] && upstream="http://127.0.0.1:$(port_of everything-http)"
  # A pid file without a port is a start-up that never finished: start it again below.
  if alive "$pid" && [[ -n $oldport ]]; then
    if [[ -n $upstream ]] && ! tr '\0' '\n' <"/proc/$pid/environ" | grep -qxF "UPSTREAM=$upstream"; then
      # Its upstream was restarted on another port: a proxy to nowhere is no use.
      echo "peers: $name forwards to a stopped upstream; restarting it"
      kill_peer "$pid"; pid=
    elif [[ $port != 0 && $oldport != "$port" ]]; then
      die "$name is running on port $oldport, not $port; run '$0 stop' first"
    else
      echo "peers: $name already running (pid $pid, port $oldport)"
      return
    fi
  fi
  pid=$(find_peer "$entry" "$transport")
  if [[ -n $pid ]]; then
    # Ours, but nothing recorded where it listens: start it again rather than guess.
    echo "peers: $name (pid $pid) runs without a recorded port; restarting it"
    kill_peer "$pid"
  fi
  [[ $port != 0 ]] && answers "$port" && die "port $port is already taken by another process; set MCP_PEER_*_PORT"
  [[ -f $entry ]] || die "missing $entry (npm dev dependencies not installed?)"
  local preload=(--import "$PRELOAD")
  [[ $entry == "$EVERYTHING" ]] && preload+=(--import "$ANNOUNCE")
  # nohup + own log: the peer must outlive this script and not write to the caller's tty.
  PORT=$port UPSTREAM=$upstream nohup "$NODE_BIN" "${preload[@]}" "$entry" "$transport" >"$log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$pidf"
  local deadline=$((SECONDS + WAIT_SECS)) bound=
  until [[ -n $bound ]] && answers "$bound"; do
    kill -0 "$pid" 2>/dev/null || { tail -n 20 "$log" >&2; rm -f "$pidf"; die "$name exited during start-up (log: $log)"; }
    if ((SECONDS >= deadline)); then
      kill "$pid" 2>/dev/null || true; rm -f "$pidf"
      tail -n 20 "$log" >&2
      die "$name did not answer within ${WAIT_SECS}s (log: $log)"
    fi
    sleep 0.2
    bound=$(announced_port "$log")
  done
  echo "$pid $bound" >"$pidf"
  echo "peers: $name up (pid $pid, http://127.0.0.1:$bound)"
}

stop_one() {
  local name=$1 pidf="$DIR/$1.pid" pid= _port
  read -r pid _port <<<"$(recorded "$name")"
  alive "$pid" || pid=$(find_peer "$2" "$3")
  if alive "$pid"; then
    kill_peer "$pid"
    echo "peers: $name stopped (pid $pid)"
  else
    echo "peers: $name not running"
  fi
  rm -f "$pidf"
}

# What the tests read (scripts/test.sh, and anyone running one tier by hand).
write_env() {
  local origin=http://127.0.0.1
  {
    echo "export MCP_TEST_URL=$origin:$(port_of everything-http)/mcp"
    echo "export MCP_SSE_TEST_URL=$origin:$(port_of everything-sse)/sse"
    echo "export MCP_FAULT_PROXY=$origin:$(port_of fault-proxy)"
    echo "export MCP_MODERN_TEST_URL=$origin:$(port_of modern-only)/mcp"
    echo "export MCP_DUAL_TEST_URL=$origin:$(port_of modern-dual)/mcp"
    echo "export MCP_OAUTH_TEST_URL=$origin:$(port_of oauth)"
  } >"$ENV_FILE"
}

all_alive() {
  local p pid _port
  for p in "${PEERS[@]}"; do
    set -- $p; read -r pid _port <<<"$(recorded "$1")"
    alive "$pid" || return 1
  done
}

[[ -x $NODE_BIN ]] || die "no system node found (set PEERS_NODE)"
mkdir -p "$DIR"
case ${1:-} in
  start)  for p in "${PEERS[@]}"; do start_one $p; done; write_env ;;
  stop)   for p in "${PEERS[@]}"; do stop_one $p; done; rm -f "$ENV_FILE" ;;
  env)    all_alive && [[ -f $ENV_FILE ]] || die "the peers are not running ('$0 start')"; cat "$ENV_FILE" ;;
  status)
    rc=0
    for p in "${PEERS[@]}"; do
      set -- $p; read -r pid port <<<"$(recorded "$1")"
      if alive "$pid"; then echo "$1 running (pid $pid, port $port)"
      else pid=$(find_peer "$2" "$3"); if alive "$pid"; then echo "$1 running (pid $pid, port unknown: no pid file)"; else echo "$1 stopped"; rc=3; fi; fi
    done
    exit $rc ;;
  *) echo "usage: $0 start|env|stop|status" >&2; exit 2 ;;
esac
