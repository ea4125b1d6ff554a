package realtime

import (
	"context"
	"strconv"
	"sync"
)

// Bus carries room messages between the hubs of all instances.
type Bus interface {
	Publish(ctx context.Context, m Message) error
	Subscribe(deliver func(Message))
}

// LocalBus delivers within this process (one instance).
type LocalBus struct {
	mu   sync.RWMutex
	subs []func(Message)
}

func NewLocalBus() *LocalBus { return &LocalBus{} }

func (b *LocalBus) Publish(_ context.Context, m Message) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, s := range b.subs {
		s(m)
	}
	return nil
}

func (b *LocalBus) Subscribe(deliver func(Message)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, deliver)
}

func itoa(id int64) string { return strconv.FormatInt(id, 10) }

func parseID(s string) (int64, error) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err == nil && id <= 0 {
		err = strconv.ErrRange
	}
	return id, err
}
