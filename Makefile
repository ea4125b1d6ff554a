# Portalwright — the two commands a newcomer needs:
#   make run    set up, build and start on the embedded default (SQLite in ./data)
#   make test   set up and run every test (Go with -race, Vitest, browser tests)
# Other targets: build, web, api, bench, fuzz, lint, clean.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

GO      ?= go
BIN     := bin/portalwright
BUILD   := $(shell git rev-list --count HEAD 2>/dev/null || echo 0)
LDFLAGS := -s -w -X portalwright.Build=$(BUILD)
WEB_SRC := $(shell find web/src web/public web/index.html web/api-docs.html web/vite.config.ts web/package.json VERSION -type f 2>/dev/null)
GO_SRC  := $(shell find . -name '*.go' -not -path './web/node_modules/*' -not -path './e2e/node_modules/*') go.mod go.sum \
           $(shell find internal -name '*.sql' -o -name '*.html') $(shell find templates -type f)

.PHONY: run test build web deps deps-test go-test go-test-early go-test-late go-test-app web-test web-size engine-test e2e-test bench fuzz lint clean api

## run: build everything and start the server on the embedded default (SQLite in ./data)
run: build
	./$(BIN) serve

## build: the single binary bin/portalwright with the web app embedded
build: deps $(BIN)

$(BIN): $(GO_SRC) web/dist/index.html
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/portalwright

## web: the production build of the web app in web/dist
web: web/dist/index.html

web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The bundle only: the type check is a test (web-test), so the binary does not wait for it.
web/dist/index.html: web/node_modules/.installed $(WEB_SRC)
	cd web && npm run bundle --silent

e2e/node_modules/.installed: e2e/package.json e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund --loglevel=error
	touch $@

## deps: check the tools the build needs (git, Go, Node.js); say what is missing
deps:
	@scripts/check-deps.sh build

deps-test:
	@scripts/check-deps.sh test

## test: Go tests (race detector; PostgreSQL too when TEST_DATABASE_URL is set), Vitest, browser tests
## (side by side, scripts/test.sh: the build; the Go tests; the type check, Vitest and engine; the browser tests)
test: deps-test
	scripts/test.sh

# The race detector runs over every package but the HTTP suites of internal/app, which run
# whole servers (4x slower under -race: most of the CI's time); there it runs over the suites
# whose point is concurrency (APP_RACE), and every suite runs once without it.
APP_RACE = TestNoLostUpdates|TestRealtimeFanOut|TestSocketsFollow|TestCommitReachesOtherUsersLive|TestTwoInstancesShareEvents|TestWorkingTogether$$|TestRecovery|TestGracefulShutdown|TestTranslationSaveQueries|TestReadiness$$
# -trimpath: compiled packages do not depend on the checkout's folder, so a clone elsewhere (CI's)
# reuses the build cache, and the non-race run shares the packages `make build` compiled.
# -timeout 30m: beside the other lanes a package's suite may take longer than go test's 10 min.
GO_TEST = PORTALWRIGHT_BIN=$(CURDIR)/$(BIN) $(GO) test -trimpath -count=1 -timeout 30m
# The packages whose tests need neither the web app (embedded through internal/app) nor the
# binary: they run while the web app and the binary are built (go-test-early).
GO_EARLY = $(GO) list -e -test -f '{{.ImportPath}} {{join .Deps " "}}' ./... | \
	awk '$$1 ~ /\.test$$/ && !/ portalwright\/web( |$$)/ { sub(/\.test$$/, "", $$1); print $$1 }'
go-test: go-test-early go-test-late go-test-app
go-test-early:
	$(GO_TEST) -race $$($(GO_EARLY))
# The race detector over the packages that need the binary, and over internal/app's APP_RACE.
go-test-late: $(BIN)
	early=" $$($(GO_EARLY) | tr '\n' ' ') "; \
	$(GO_TEST) -race $$($(GO) list ./... | grep -v '/internal/app$$' | while read -r p; do [[ "$$early" == *" $$p "* ]] || echo "$$p"; done)
	$(GO_TEST) -race -run '$(APP_RACE)' ./internal/app
# Every internal/app suite once, without the race detector (the longest package: a lane of its own).
go-test-app: $(BIN)
	$(GO_TEST) ./internal/app

web-test: web/node_modules/.installed
	cd web && npm run typecheck --silent && npm test --silent

## The login page's download budget (web/scripts/bundle-size.mjs: 250 KB gzipped)
web-size: web/dist/index.html
	cd web && npm run size --silent

engine-test:
	node --test engine/

e2e-test: $(BIN) e2e/node_modules/.installed
	cd e2e && PORTALWRIGHT_BIN=$(CURDIR)/$(BIN) node --test --test-concurrency=2 tests/

## bench: speed and memory figures (see docs/operations.md#benchmarks)
bench: build
	scripts/bench.sh

## api: write the API description from the route table: internal/apidoc/openapi.json, docs/api.md's
## route tables (notes from docs/api-notes.md), web/src/api/types.gen.ts (TestAPIDescription checks them)
api:
	$(GO) test -tags devweb -count=1 -run '^TestAPIDescription$$' ./internal/app -update-api

## fuzz: a million inputs against the asset path check (no path out of the workspace or into .git)
fuzz:
	$(GO) test -run='^$$' -fuzz=FuzzAssetPath -fuzztime=1000000x ./internal/asset

lint:
	$(GO) vet ./...
	cd web && npm run typecheck --silent

clean:
	rm -rf bin web/dist web/node_modules/.installed e2e/node_modules/.installed
