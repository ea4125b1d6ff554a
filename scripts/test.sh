#!/usr/bin/env bash
# make test's lanes, side by side (issue 32 item 5). A run on two cores is bound by the CPU the
# suites spend, so nothing waits that need not: the Go tests that need neither the web app's
# bundle nor the binary run while they are built.
#   build    the web app's dependencies, its bundle (and the login page's size budget), the
#            binary, the browser tests' dependencies
#   go       once the web app's dependencies are in, the Go tests that need no build, under the
#            race detector (make go-test-early); once the binary is built, the race detector
#            over the rest (make go-test-late)
#   app      once the binary is built: internal/app's HTTP suites, the longest package (make
#            go-test-app), beside the race detector's packages instead of after them
#   web      once the web app's dependencies are in: the type check, Vitest, the engine's tests
#   browser  once the binary is built: the browser tests (make e2e-test)
# Each lane writes its own log; a lane's log is printed whole when it ends (never interleaved),
# with its wall time and the CPU of everything it ran, and the last lines say how each lane
# ended and list what failed, so the end of a CI log tells the story. Exit status: 0 when every
# lane passed.
set -uo pipefail
cd "$(dirname "$0")/.."

logs=$(mktemp -d /tmp/portalwright-test.XXXXXX)
trap 'rm -rf "$logs"' EXIT
declare -A started pids

# after STEP: waits until the build lane has passed STEP (a marker file); fails if it failed.
after() {
  until [ -e "$logs/$1.ready" ]; do
    [ -e "$logs/build.failed" ] && { echo "not run: the build failed (see the build lane)"; return 1; }
    sleep 1
  done
}
export -f after
export logs

lane() { # lane NAME shell-commands
  local name=$1
  started[$name]=$(date +%s)
  # bash's time: the lane's wall and the CPU of everything it ran (what the run is bound by).
  # Processes a lane starts but does not wait for (a browser's helpers, a server killed by a
  # test) escape bash's count; with LANE_CGROUPS=1 and cgroup v1's cpuacct writable (a CI
  # machine's root) each lane runs in a cgroup of its own, which counts them too.
  (
    if [ "${LANE_CGROUPS:-}" = 1 ] && mkdir -p "/sys/fs/cgroup/cpuacct/pw-lane-$name" 2>/dev/null &&
      echo "$BASHPID" >"/sys/fs/cgroup/cpuacct/pw-lane-$name/cgroup.procs"; then
      cg=/sys/fs/cgroup/cpuacct/pw-lane-$name
      echo 0 >"$cg/cpuacct.usage"
    fi
    TIMEFORMAT="$name lane: %0R s wall, %0U s user CPU, %0S s system CPU"
    time bash -eo pipefail -c "$2" >"$logs/$name.log" 2>&1
    rc=$?
    [ -n "${cg:-}" ] && echo "$name lane: $(($(cat "$cg/cpuacct.usage") / 1000000000)) CPU-s counted by its cgroup" >&2
    exit $rc
  ) 2>"$logs/$name.time" &
  pids[$name]=$!
}

m='make --no-print-directory'
lane build "{ $m web/node_modules/.installed && touch \$logs/webdeps.ready &&
  $m build web-size e2e/node_modules/.installed && touch \$logs/bin.ready; } || { touch \$logs/build.failed; exit 1; }"
# After the web app's dependencies: a Go test reads them (internal/filetype: Ace's modes), and
# one that ran while npm was unpacking them failed.
lane go "after webdeps; $m go-test-early; after bin; $m go-test-late"
lane app "after bin; $m go-test-app"
lane web "after webdeps; $m web-test engine-test"
lane browser "after bin; $m e2e-test"

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
      summary+=("$name lane: ok (${took}s; $(cut -d: -f2- "$logs/$name.time" | tr '\n' ';'))")
    else
      status=1
      summary+=("$name lane: FAILED, exit $rc (${took}s)")
      # What failed, for the end of the log (the part of a CI log one sees first): Go's --- FAIL and
      # FAIL lines with the test's own messages (file_test.go:N:), node:test's not ok with its error
      # and location, Vitest's FAIL with the error's first line. Each cut to 300 characters.
      while IFS= read -r line; do summary+=("  ${line:0:300}"); done < <(sed 's/\x1b\[[0-9;]*m//g' "$logs/$name.log" |
        awk '/^(--- FAIL|FAIL|not ok| +not ok| FAIL |panic:|make: \*\*\*|not run:)|^ +[A-Za-z0-9_]+_test\.go:[0-9]+: |^ +(error|location): |^(AssertionError|TestingLibraryElementError|Error|TypeError): / {
          print
          # node:test writes a long error as a YAML block: its first three lines.
          if ($0 ~ /^ +error: [|>]-?$/) { for (i = 0; i < 3 && (getline next_line) > 0; i++) print next_line }
        }' | head -n 60)
    fi
    unset "pids[$name]"
  done
done

echo "======== summary ========"
printf '%s\n' "${summary[@]}"
exit $status
