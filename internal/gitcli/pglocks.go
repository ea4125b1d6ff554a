package gitcli

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"hash/fnv"
)

// PGLocks is a Locker for several instances: a PostgreSQL session advisory lock per key,
// held on its own connection for as long as the lock is held. Waiters of the same instance
// queue in-process first, so each instance uses at most one connection per busy key.
type PGLocks struct {
	db    *sql.DB
	local *Locks
}

func NewPGLocks(db *sql.DB) *PGLocks { return &PGLocks{db: db, local: NewLocks()} }

// lockClass namespaces Portalwright's advisory locks (the first of the two int4 keys).
const lockClass = 0x50575254 // "PWRT"

func lockKey(key string) int32 {
	h := fnv.New32a()
	h.Write([]byte(key))
	return int32(h.Sum32())
}

func (l *PGLocks) Lock(ctx context.Context, key string) (func(), error) {
	unlockLocal, err := l.local.Lock(ctx, key)
	if err != nil {
		return nil, err
	}
	conn, err := l.db.Conn(ctx)
	if err != nil {
		unlockLocal()
		return nil, err
	}
	k := lockKey(key)
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1, $2)", lockClass, k); err != nil {
		conn.Close()
		unlockLocal()
		return nil, err
	}
	return func() {
		if _, err := conn.ExecContext(context.Background(), "SELECT pg_advisory_unlock($1, $2)", lockClass, k); err != nil {
			// Never hand a connection that may still hold the lock back to the pool.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
		}
		conn.Close()
		unlockLocal()
	}, nil
}
