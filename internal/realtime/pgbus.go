package realtime

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"

	"portalwright/internal/store"
)

// Channel is the PostgreSQL NOTIFY channel the instances share.
const Channel = "portalwright_events"

// maxNotifyPayload keeps payloads under PostgreSQL's 8000-byte NOTIFY limit.
const maxNotifyPayload = 7000

// PGBus fans room messages out between instances through PostgreSQL LISTEN/NOTIFY. Every
// instance, the publisher included, delivers what it hears, so a message reaches each
// client once whichever instance it is connected to.
type PGBus struct {
	db  *store.DB
	url string
	log *slog.Logger

	mu   sync.RWMutex
	subs []func(Message)
}

// NewPGBus listens on the database at url until ctx ends (reconnecting after failures).
// ready is closed once the first LISTEN is in place.
func NewPGBus(ctx context.Context, db *store.DB, url string, log *slog.Logger) (*PGBus, <-chan struct{}) {
	b := &PGBus{db: db, url: url, log: log}
	ready := make(chan struct{})
	go b.listen(ctx, ready)
	return b, ready
}

func (b *PGBus) Subscribe(deliver func(Message)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.subs = append(b.subs, deliver)
}

// Publish notifies every instance. A payload too large for NOTIFY is stored and its id sent.
func (b *PGBus) Publish(ctx context.Context, m Message) error {
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	payload := string(data)
	if len(payload) > maxNotifyPayload {
		var id int64
		if err := b.db.QueryRowContext(ctx, "INSERT INTO realtime_events (payload, created_at) VALUES (?, ?) RETURNING id",
			payload, time.Now().UTC()).Scan(&id); err != nil {
			return err
		}
		payload = "ref:" + strconv.FormatInt(id, 10)
		// Parked events are read within moments; keep an hour for slow listeners.
		_, _ = b.db.ExecContext(ctx, "DELETE FROM realtime_events WHERE created_at < ?", time.Now().UTC().Add(-time.Hour))
	}
	_, err = b.db.ExecContext(ctx, "SELECT pg_notify(?, ?)", Channel, payload)
	return err
}

func (b *PGBus) listen(ctx context.Context, ready chan struct{}) {
	backoff := 500 * time.Millisecond
	var once sync.Once
	for ctx.Err() == nil {
		err := b.listenOnce(ctx, func() { once.Do(func() { close(ready) }); backoff = 500 * time.Millisecond })
		if ctx.Err() != nil {
			return
		}
		b.log.Warn("realtime: LISTEN connection lost; reconnecting", "error", err, "in", backoff)
		select {
		case <-time.After(backoff):
		case <-ctx.Done():
			return
		}
		backoff = min(backoff*2, 10*time.Second)
	}
}

func (b *PGBus) listenOnce(ctx context.Context, listening func()) error {
	conn, err := pgx.Connect(ctx, b.url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+Channel); err != nil {
		return err
	}
	listening()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		b.handle(ctx, n.Payload)
	}
}

func (b *PGBus) handle(ctx context.Context, payload string) {
	if ref, ok := strings.CutPrefix(payload, "ref:"); ok {
		id, err := strconv.ParseInt(ref, 10, 64)
		if err != nil {
			return
		}
		if err := b.db.QueryRowContext(ctx, "SELECT payload FROM realtime_events WHERE id = ?", id).Scan(&payload); err != nil {
			b.log.Warn("realtime: parked event not found", "id", id, "error", err)
			return
		}
	}
	var m Message
	if err := json.Unmarshal([]byte(payload), &m); err != nil {
		return
	}
	b.mu.RLock()
	subs := append([]func(Message){}, b.subs...)
	b.mu.RUnlock()
	for _, s := range subs {
		s(m)
	}
}
