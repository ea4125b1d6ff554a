#!/usr/bin/env bash
# make bench: the figures the issues ask for, measured on this machine in one run.
# Medians over several runs; the machines are shared and noisy, so compare within a run.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${PORTALWRIGHT_BIN:-bin/portalwright}
RUNS=${BENCH_RUNS:-9}
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
now_ms() { date +%s%3N; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

echo "== Foundation (issue 2) =="

# 1. Start to /readyz on an empty data dir (includes creating the database, migrating and
#    hashing the generated admin password).
for i in $(seq 1 "$RUNS"); do
  port=$(free_port)
  dir="$work/start-$i"
  t0=$(now_ms)
  "$BIN" serve --addr "127.0.0.1:$port" --data-dir "$dir" --log-level error >/dev/null 2>&1 &
  pid=$!
  until curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do sleep 0.005; done
  t1=$(now_ms)
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo $((t1 - t0))
done > "$work/start.txt"
echo "start to /readyz, empty data dir: median $(median < "$work/start.txt") ms over $RUNS runs (target < 1000 ms)"

# 2. Idle RSS: started, one sign-in, profile read, then 3 s idle.
port=$(free_port)
PORTALWRIGHT_ADMIN_PASSWORD=bench-pass "$BIN" serve --addr "127.0.0.1:$port" --data-dir "$work/idle" --log-level error >/dev/null 2>&1 &
pid=$!; pids+=("$pid")
until curl -fs "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; do sleep 0.01; done
token=$(curl -fs -H 'Content-Type: application/json' -d '{"username":"admin","password":"bench-pass"}' "http://127.0.0.1:$port/api/v1/user/login" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id_token"])')
curl -fs -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/v1/user/profile" >/dev/null
curl -fs "http://127.0.0.1:$port/" >/dev/null
sleep 3
rss_kb=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
echo "idle RSS after one sign-in: $((rss_kb / 1024)) MB (target < 60 MB)"
kill "$pid"; wait "$pid" 2>/dev/null || true

# 3. Login page: the JS and CSS index.html loads up front (entry script, modulepreloads,
#    stylesheets), gzipped at level 9 as a server would send them.
total=0
for f in $(grep -oE '(src|href)="\./assets/[^"]+\.(js|css)"' web/dist/index.html | sed -E 's/.*"\.\/(.*)"/\1/' | sort -u); do
  size=$(gzip -9 -c "web/dist/$f" | wc -c)
  total=$((total + size))
  printf '  %-48s %7d B gz\n' "$f" "$size"
done
echo "login page initial JS + CSS: $((total / 1024)) KB gzipped (target <= 250 KB)"

echo
echo "== Portals on git (issue 4) =="
# A 10,000-file (~200 MB) portal; ratios against raw git on the same repository.
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 30m -run TestWorkspaceRatios -v ./internal/workspace/ 2>&1 \
  | grep -E '^(==|first open|local changes|commit\+push)|created in|FAIL'

echo
# 500 WebSocket clients on loopback in one portal room; the real binary as its own process.
PORTALWRIGHT_BENCH=1 PORTALWRIGHT_BIN="$PWD/$BIN" go test -count=1 -timeout 10m -run TestRealtimeFanOut -v ./internal/app/ 2>&1 \
  | grep -E '^(==|commit|fan-out|server RSS)|FAIL'

echo
echo "== Hardening (issue 8) =="
# The real binary on loopback (internal/loadbench): wsChanges with 2, 200 and 2,000 workspaces
# at 20 callers; 200 signed-in authors' mixed reads for 30 s on SQLite, then on PostgreSQL when
# PORTALWRIGHT_BENCH_DATABASE_URL or TEST_DATABASE_URL names a server (a fresh schema is made
# and dropped); branch listing and allReferences at 64 clients.
PORTALWRIGHT_BENCH=1 PORTALWRIGHT_BIN="$PWD/$BIN" go test -count=1 -timeout 30m -run 'TestWorkspaceChangesScale|TestMixedReadLoad' -v ./internal/loadbench/ 2>&1 \
  | grep -E '^(==|workspaces|[0-9]|throughput|server CPU|  [a-zA-Z])|FAIL'

echo
# 400 ~2-megapixel JPEGs in a real workspace; the asset grid's thumbnails (height=200) over
# HTTP, cold (decoded, scaled, cached) then warm (the disk cache) then revalidated (304).
# Then (issue 23) the server's RSS growth while a 7000×7000 16-bit PNG, and the largest one
# accepted, are asked at 8 sizes in parallel.
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 20m -run 'TestThumbnailGrid|TestThumbnailMemory' -v ./internal/app/ 2>&1 \
  | grep -E '^(==|[0-9]+ JPEGs|cold|warm|revalidated|cache|16-bit PNG|  )|FAIL'

echo
# The asset API (internal/loadbench, the real binary on loopback): a folder of 1,000 small PNGs
# (every child with its dimensions) listed by 64 authenticated clients, 3 rounds of 10 s; then a
# 300 MB video uploaded as multipart (video limit raised to 400 MB): the server's RSS growth and
# the throughput against a raw loopback copy (HTTP PUT io.Copy'd to a file) of the same bytes.
PORTALWRIGHT_BENCH=1 PORTALWRIGHT_BIN="$PWD/$BIN" go test -count=1 -timeout 20m -run 'TestAssetFolderListing|TestAssetUpload' -v ./internal/loadbench/ 2>&1 \
  | grep -E '^(==|  answer|  round|listing|upload)|FAIL'

echo
# Portal search (internal/loadbench, the real binary on loopback): 5,000 pages, a widget per five
# pages and 2,000 translations written into a workspace; GET /portal/1/1/search (every text file)
# against `git grep -F -i -l` of the same phrase over the whole workspace, alternating, medians of 15 runs.
PORTALWRIGHT_BENCH=1 PORTALWRIGHT_BIN="$PWD/$BIN" go test -count=1 -timeout 10m -run 'TestPortalSearch' -v ./internal/loadbench/ 2>&1 \
  | grep -E '^(==|  search|  git grep|  a phrase|search over)|FAIL'

echo
echo "== Translations (issue 11) =="
# 5,000 keys in 5 languages on the demo Crew Portal: the API's read, status and save-all
# (internal/loadbench, the real binary), then the Translation Manager in Chromium (first paint
# of the key list after a route change, search keystroke to filtered list, Save to the toast).
PORTALWRIGHT_BENCH=1 PORTALWRIGHT_BIN="$PWD/$BIN" go test -count=1 -timeout 10m -run 'TestTranslationSaveAll' -v ./internal/loadbench/ 2>&1 \
  | grep -E '^(==|  [a-z]|translation)|FAIL'
( cd e2e && [ -d node_modules ] || npm ci --no-audit --no-fund >/dev/null )
PORTALWRIGHT_BIN="$PWD/$BIN" node e2e/bench/translations.bench.js 2>&1 | grep -E '^(==|  |translation manager)|Error'

echo
echo "== Page designer (issue 12) =="
# The demo Crew Portal in Chromium: an in-app route change to another page's designer-mode route
# (and a click in the toolbar's page selector) to the engine's progress 100 for that page in the
# preview frame, over home, flight-info, crew-schedule, safety and contacts.
PORTALWRIGHT_BIN="$PWD/$BIN" node e2e/bench/designer.bench.js 2>&1 | grep -E '^(==|  |designer)|Error'

echo
echo "== Task runner sandbox (issue 13) =="
# The passenger starter's build (node build.js) run directly and in the bubblewrap sandbox,
# alternating, medians; the whole run adds the workspace copy, the Dockerfile parse and the
# copy back (internal/taskrunner).
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 10m -run 'TestBenchSandboxOverhead' -v ./internal/taskrunner/ 2>&1 \
  | grep -E '^BENCH|FAIL'

echo
echo "== Previews (issue 13) =="
# A locked and a live preview of the demo Crew Portal over HTTP with no sign-in: the link's
# index.html on a new connection (median of 51), then 50 keep-alive viewers for 5 s.
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 10m -run 'TestPreviewViewers' -v ./internal/app/ 2>&1 \
  | grep -E 'preview:|FAIL' | sed -E 's/^ +preview_bench_test.go:[0-9]+: //'

echo
echo "== Git over SSH (issue 15) =="
# git clone of a 10,000-file portal (~200 MB) through the built-in SSH server (the OpenSSH
# client, the product's receive/upload rules) against git clone over `git daemon` of the same
# repository, with and without checkout, alternating, medians of 3 (internal/gitssh).
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 60m -run 'TestBenchCloneOverSSH' -v ./internal/gitssh/ 2>&1 \
  | grep -E 'BENCH|portal of|FAIL|SKIP' | sed -E 's/^ +bench_test.go:[0-9]+: //'

echo
echo "== Loadables (issue 14) =="
# The demo Passenger Portal with 200 MB of assets: generation against git archive + the same
# build run directly, the server's RSS growth, and the download against a bare file server.
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 20m -run 'TestLoadableFigures' -v ./internal/app/ 2>&1 \
  | grep -E '^BENCH|FAIL'

echo
echo "== Working together (issue 21) =="
# The structural merge itself: a 5,000-key translation file, a 2 MB JSON file and a text file,
# both sides changed (no fast path).
go test -count=1 -run '^$' -bench 'BenchmarkMerge' -benchtime=20x ./internal/merge/ 2>&1 | grep -E '^Benchmark|FAIL'
# Over HTTP: a commit needing the structural merge against a rebased one and an unmoved one
# (medians of 15), and presence from one author's PUT to the other author's socket.
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 10m -run 'TestCollaborationFigures' -v ./internal/app/ 2>&1 \
  | grep -E '^(==|commit|presence)|FAIL'

echo
echo "== Upstream with thousands of host branches (issue 24) =="
# A git host (git daemon on loopback) of 24 branches gains 2,000 branches and loses them again,
# five times: the portal's open that sees them against a raw `git fetch --prune` of the same
# change in a plain clone (alternating), upstream status p50 at 24 and 2,024 branches, and the
# author's workspace .git size at both (internal/app, over HTTP on the real server).
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 30m -run 'TestUpstreamBranchFigures' -v ./internal/app/ 2>&1 \
  | grep -E '^(==|open|upstream status|workspace)|FAIL' | grep -v '^== Upstream'

echo
echo "== Release readiness (issue 29) =="
# The check engine on a generated 5,000-page portal (a widget per page, 10 languages × 2,000
# keys, 5,000 assets; internal/check): a full check in process (time, CPU, peak Go heap), and a
# one-file save: Index.Update + Report as the server runs it (p95 and CPU per save), beside a
# Refresh that lists the whole tree again; the CPU of saves that move a portal-wide set (a
# translation value, a sitemap title, an asset uploaded or removed). Then the command itself on
# the same portal written to disk, under GNU time: wall time and the process's peak RSS.
go test -count=1 -timeout 20m -run '^$' -bench 'BenchmarkFullCheck5000Pages|BenchmarkIncremental' -benchtime=10x ./internal/check/ 2>&1 \
  | tee "$work/check-bench.txt" | grep -E '^Benchmark|FAIL'
metric() { awk -v name="$1" -v unit="$2" '$1 ~ "^"name {for (i = 2; i < NF; i++) if ($(i+1) == unit) print $i}' "$work/check-bench.txt"; }
echo "full check in process: $(awk "BEGIN {printf \"%.2f\", $(metric BenchmarkFullCheck ns/op) / 1e9}") s, $(metric BenchmarkFullCheck cpu-ms/op) CPU-ms, peak Go heap $(metric BenchmarkFullCheck peak-heap-MB) MB (target < 3 s)"
echo "one-file save (Update + Report): p95 $(metric BenchmarkIncrementalOneFile p95-ms) ms, $(metric BenchmarkIncrementalOneFile cpu-ms/save) CPU-ms a save (target p95 < 100 ms); after a relist: p95 $(metric BenchmarkIncrementalOneFile p95-relist-ms) ms"
echo "other saves, CPU-ms: translation value $(metric BenchmarkIncrementalOther cpu-ms/translation), sitemap title $(metric BenchmarkIncrementalOther cpu-ms/sitemap-title), widget instance $(metric BenchmarkIncrementalOther cpu-ms/widget), asset added or removed $(metric BenchmarkIncrementalOther cpu-ms/asset) (target p95 < 100 ms)"
if [ -x /usr/bin/time ]; then
  PORTALWRIGHT_BENCH_PORTAL="$work/check-portal" go test -count=1 -run 'TestWriteBigPortal$' ./internal/check/ >/dev/null
  for i in 1 2 3; do
    rc=0
    /usr/bin/time -v -o "$work/check-time.txt" "$BIN" check --format json "$work/check-portal" >/dev/null || rc=$?
    [ "$rc" -le 1 ] || { echo "portalwright check failed (exit $rc)"; break; }
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (j = 1; j <= n; j++) s = s * 60 + t[j]; print s}' "$work/check-time.txt")
    rss=$(awk -F': ' '/Maximum resident set size/ {print int($2 / 1024)}' "$work/check-time.txt")
    echo "$wall $rss"
  done > "$work/check-cli.txt"
  echo "portalwright check --format json, 5,000-page portal: median $(cut -d' ' -f1 "$work/check-cli.txt" | median) s wall, max RSS $(cut -d' ' -f2 "$work/check-cli.txt" | median) MB over 3 runs (target < 3 s and < 150 MB RSS)"
else
  echo "portalwright check RSS: skipped, GNU time is not installed (apt-get install time)"
fi

echo
echo "== Real repository (issue 30) =="
# A generated repository shaped like a real website monorepo (internal/app/realrepo_gen_test.go,
# one git fast-import: 5,000 commits, 23 branches, Markdown/MDX pages in 10 languages, nested
# locale files, TypeScript, ~4 MB of binaries) served by git daemon on loopback; over HTTP on the
# real server, each against raw git in the same run (alternating, medians): import until open vs
# git clone, local changes with 50 edited files vs git status --porcelain, search for a phrase in
# one .md file vs git grep -F -i -l, commit + push of one file vs git add/commit/push.
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 30m -run 'TestRealRepositoryFigures' -v ./internal/app/ 2>&1 \
  | grep -E '^(import until|local changes|search,|commit \+ push)|FAIL'

echo
echo "== Backup and restore (issue 34) =="
# A data directory of 50 portals (one of 10,000 files, 100 MB: PORTALWRIGHT_BENCH_BACKUP_MB, the
# issue-4 portal's 200 MB when raised) and 200 authors' workspaces with uncommitted work, SQLite
# (internal/loadbench): `tar -czf` of the directory against `portalwright backup
# --include-workspaces` to a folder and to a .tar.gz (time, size), the restore, and the server's
# read p99 (20 authors, closed loop) while a backup runs against without one. Scale with
# PORTALWRIGHT_BENCH_BACKUP_{PORTALS,FILES,MB,WORKSPACES,LARGE_WORKSPACES,CLIENTS}.
PORTALWRIGHT_BENCH=1 PORTALWRIGHT_BIN="$PWD/$BIN" go test -count=1 -timeout 60m -run 'TestBackupFigures' -v ./internal/loadbench/ 2>&1 \
  | grep -E '^(==|\(machine|data directory|tar -czf|portalwright (backup|restore)|    (database|repositories|loadable|workspaces)|reads,)|FAIL'

echo
echo "== Value history (issue 33) =="
# One git fast-import: a branch of 10,000 commits, 300 of which change a 5,000-key flat
# translation file (internal/valuehistory): the history of one key, cold (the service's caches
# empty) and warm (asked again), and the blame of the whole file cold, through the service on a
# real workspace; wall time and CPU (git's included), medians of 7.
PORTALWRIGHT_BENCH=1 go test -count=1 -timeout 20m -run 'TestValueHistoryFigures' -v ./internal/valuehistory/ 2>&1 \
  | grep -E '^(== value|history of|blame of)|FAIL'
