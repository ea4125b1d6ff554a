package store

import (
	"context"
	"database/sql"
	"sync"
)

// Prepared reads for SQLite.
//
// The SQLite driver prepares (parses and plans) a statement for every query; under load that
// was a fifth of the server's CPU (issue 8: 200 clients' mixed reads). Reads on SQLite
// therefore go through prepared statements kept per query text: database/sql prepares each
// on a connection of the read pool the first time it runs there and reuses it after.
// PostgreSQL's driver (pgx) keeps a statement cache of its own. Writes run in transactions
// on the single writer connection and are not cached.

// stmtLimit bounds the cache; queries past it run unprepared (the code has a few hundred
// query texts; only generated ones, such as IN lists of varying length, could pass it).
const stmtLimit = 512

type stmtCache struct {
	mu    sync.Mutex
	stmts map[string]*sql.Stmt
}

// stmt returns the prepared statement for a read, or nil to run the query unprepared.
func (db *DB) stmt(ctx context.Context, query string) *sql.Stmt {
	if db.Dialect != SQLite {
		return nil
	}
	c := &db.prepared
	c.mu.Lock()
	st, ok := c.stmts[query]
	full := len(c.stmts) >= stmtLimit
	c.mu.Unlock()
	if ok || full {
		return st
	}
	st, err := db.read.PrepareContext(ctx, query)
	if err != nil {
		return nil // the query itself reports the error
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stmts == nil {
		c.stmts = map[string]*sql.Stmt{}
	}
	if prev, ok := c.stmts[query]; ok { // prepared meanwhile by another caller
		st.Close()
		return prev
	}
	c.stmts[query] = st
	return st
}

// closeStmts closes the prepared statements (before the pool closes).
func (db *DB) closeStmts() {
	c := &db.prepared
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.stmts {
		st.Close()
	}
	c.stmts = nil
}
