// Package noticetest records what a service publishes, for tests that check its notices.
package noticetest

import (
	"context"
	"sync"

	"portalwright/internal/notice"
)

// Card is a progress card as it was sent.
type Card struct {
	UserID int64
	Card   notice.Card
}

// Event is an event as it was sent.
type Event struct {
	Room  notice.Room
	Title string
	Data  any
}

// Recorder is a notice.Publisher that keeps what it is sent. Safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	cards  []Card
	events []Event
}

// Progress implements notice.Publisher.
func (r *Recorder) Progress(_ context.Context, userID int64, c notice.Card) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cards = append(r.cards, Card{UserID: userID, Card: c})
}

// Publish implements notice.Publisher.
func (r *Recorder) Publish(_ context.Context, to notice.Room, title string, data any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, Event{Room: to, Title: title, Data: data})
}

// Cards is every card sent so far, oldest first.
func (r *Recorder) Cards() []Card {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Card(nil), r.cards...)
}

// Events is every event sent so far, oldest first.
func (r *Recorder) Events() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}
