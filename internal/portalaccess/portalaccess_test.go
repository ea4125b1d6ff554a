package portalaccess_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"

	"portalwright/internal/httpx"
	"portalwright/internal/portalaccess"
)

// The check cannot be skipped: outside this package a Portal can only be declared (the zero
// value) or obtained from Checker.Check — `portalaccess.Portal{domainID: 1, portalID: 2}`
// does not compile, as the fields are unexported. The zero value is refused in one place:
// every accessor panics, so a portal-scoped method handed one never reaches the repository.

type finder map[int64]int64 // portal id → its domain id

var errNotFound = errors.New("portal not found")

func (f finder) Load(_ context.Context, domainID, portalID int64) (portalaccess.Record, error) {
	if d, ok := f[portalID]; !ok || d != domainID {
		return portalaccess.Record{}, errNotFound
	}
	return portalaccess.Record{Name: "Crew Portal", DomainName: "Airline", Active: true}, nil
}

func TestOnlyTheCheckMakesAPortal(t *testing.T) {
	c := portalaccess.NewChecker(finder{7: 1})
	pa, err := c.Check(context.Background(), 1, 7)
	if err != nil || pa.ID() != 7 || pa.DomainID() != 1 {
		t.Fatalf("Check(1, 7) = %v, %v", pa, err)
	}
	if pa.Name() != "Crew Portal" || pa.DomainName() != "Airline" || !pa.Record().Active {
		t.Fatalf("the check did not hand on the loaded record: %+v", pa.Record())
	}
	if _, err := c.Check(context.Background(), 2, 7); !errors.Is(err, errNotFound) {
		t.Fatalf("a portal of another domain: %v, want not found", err)
	}
	if _, err := c.Check(context.Background(), 0, 7); err == nil {
		t.Fatal("domain 0 was accepted")
	}
}

func TestTheZeroPortalIsRefused(t *testing.T) {
	var unchecked portalaccess.Portal
	for name, use := range map[string]func(){
		"ID":       func() { _ = unchecked.ID() },
		"DomainID": func() { _ = unchecked.DomainID() },
		"Name":     func() { _ = unchecked.Name() },
		"Record":   func() { _ = unchecked.Record() },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s of the zero Portal did not panic", name)
				}
			}()
			use()
		}()
	}
}

func TestHandleChecksBeforeTheHandler(t *testing.T) {
	c := portalaccess.NewChecker(finder{7: 1})
	var got []int64
	h := c.Handle(func(w http.ResponseWriter, r *http.Request, pa portalaccess.Portal) error {
		got = append(got, pa.ID())
		return nil
	})
	r := chi.NewRouter()
	r.Method(http.MethodGet, "/{domainId}/{portalId}", httpx.HandlerFunc(h))
	for _, c := range []struct {
		path string
		want int
	}{{"/1/7", http.StatusOK}, {"/2/7", http.StatusInternalServerError}, {"/1/x", http.StatusBadRequest}, {"/0/7", http.StatusBadRequest}} {
		w := httptest.NewRecorder()
		r.ServeHTTP(w, httptest.NewRequest(http.MethodGet, c.path, nil))
		if w.Code != c.want {
			t.Errorf("%s: %d, want %d", c.path, w.Code, c.want)
		}
	}
	if len(got) != 1 || got[0] != 7 {
		t.Fatalf("the handler ran for %v, want only portal 7", got)
	}
}
