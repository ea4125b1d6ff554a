package gitcli

import (
	"context"
	"sync"
)

// Locker serialises writes to one repository. The in-process Locks suit a single instance;
// with several instances on PostgreSQL an advisory-lock Locker takes its place.
type Locker interface {
	// Lock waits for the key's lock or ctx; unlock releases it.
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// Locks is an in-process Locker: one lock per key, created on demand and dropped when unused.
type Locks struct {
	mu    sync.Mutex
	locks map[string]*keyLock
}

type keyLock struct {
	ch    chan struct{} // holds one token while free
	users int
}

func NewLocks() *Locks { return &Locks{locks: map[string]*keyLock{}} }

func (l *Locks) Lock(ctx context.Context, key string) (func(), error) {
	l.mu.Lock()
	k := l.locks[key]
	if k == nil {
		k = &keyLock{ch: make(chan struct{}, 1)}
		k.ch <- struct{}{}
		l.locks[key] = k
	}
	k.users++
	l.mu.Unlock()

	release := func() {
		l.mu.Lock()
		k.users--
		if k.users == 0 {
			delete(l.locks, key)
		}
		l.mu.Unlock()
	}
	select {
	case <-k.ch:
		var once sync.Once
		return func() {
			once.Do(func() {
				k.ch <- struct{}{}
				release()
			})
		}, nil
	case <-ctx.Done():
		release()
		return nil, ctx.Err()
	}
}
