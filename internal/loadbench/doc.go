// Package loadbench holds the load benchmarks of issue 8 (make bench): the real binary on
// loopback under concurrent HTTP clients. Everything is in its tests; they are skipped unless
// PORTALWRIGHT_BENCH and PORTALWRIGHT_BIN are set (scripts/bench.sh sets both).
//
// The package depends on nothing of the product but the database drivers, so it measures
// any build of the binary (an older one too, for before/after figures).
package loadbench
