package store

import (
	"context"
	"sync"
)

// QueryLog records the statements run under a context (WithQueryLog): what one call costs
// the database, for the tests that hold a call to a budget of queries. Statements run under
// other contexts (background work) are not in it.
type QueryLog struct {
	mu      sync.Mutex
	queries []string
}

type queryLogKey struct{}

// WithQueryLog returns a context under which every statement of every DB is recorded in the
// returned log.
func WithQueryLog(ctx context.Context) (context.Context, *QueryLog) {
	l := &QueryLog{}
	return context.WithValue(ctx, queryLogKey{}, l), l
}

// Queries is the statements recorded so far, in order.
func (l *QueryLog) Queries() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.queries...)
}

// logQuery records query in ctx's log, if it has one.
func logQuery(ctx context.Context, query string) {
	if l, ok := ctx.Value(queryLogKey{}).(*QueryLog); ok {
		l.mu.Lock()
		l.queries = append(l.queries, query)
		l.mu.Unlock()
	}
}
