#!/usr/bin/env bash
# make test's lanes, side by side on the one binary `make build` made (issue 32 item 5):
#   go       the Go tests (make go-test)
#   web      Vitest and the engine's tests (make web-test engine-test)
#   browser  the browser tests (make e2e-test)
# The browser tests mostly wait (a page, a server, a time-out: under half a core over their
# run), so they run beside the two lanes that keep the cores busy.
# Each lane writes its own log; a lane's log is printed whole when it ends (never interleaved),
# and the last lines say how each lane ended and list what failed, so the end of a CI log
# tells the story. Exit status: 0 when both lanes passed.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d /tmp/portalwright-test.XXXXXX)
trap 'rm -rf "$logs"' EXIT
declare -A started pids

lane() { # lane NAME make-target...
  local name=$1
  shift
  started[$name]=$(date +%s)
  # bash's time: the lane's wall and the CPU of everything it ran (what the run is bound by).
  (
    TIMEFORMAT="$name lane: %0R s wall, %0U s user CPU, %0S s system CPU"
    time make --no-print-directory "$@" >"$logs/$name.log" 2>&1
  ) 2>"$logs/$name.time" &
  pids[$name]=$!
}

lane go go-test
lane web web-test engine-test
lane browser e2e-test

status=0
summary=()
for _ in "${!pids[@]}"; do
  wait -n -p done_pid "${pids[@]}"
  rc=$?
  for name in "${!pids[@]}"; do
    [ "${pids[$name]}" = "$done_pid" ] || continue
    took=$(($(date +%s) - started[$name]))
    echo "======== $name lane: exit $rc after ${took}s ========"
    cat "$logs/$name.log"
    cat "$logs/$name.time"
    if [ "$rc" = 0 ]; then
      summary+=("$name lane: ok (${took}s; $(cut -d: -f2- "$logs/$name.time" | tr -d '\n'))")
    else
      status=1
      summary+=("$name lane: FAILED, exit $rc (${took}s)")
      # What failed, for the end of the log: Go's --- FAIL and FAIL lines, node:test's not ok, Vitest's FAIL.
      while IFS= read -r line; do summary+=("  $line"); done < <(sed 's/\x1b\[[0-9;]*m//g' "$logs/$name.log" |
        grep -E '^(--- FAIL|FAIL|not ok| +not ok| FAIL |panic:|make: \*\*\*)' | head -n 40)
    fi
    unset "pids[$name]"
  done
done

echo "======== summary ========"
printf '%s\n' "${summary[@]}"
exit $status
