package store

import (
	"database/sql"
	"time"
)

// TimeOrNil is a nullable column's time in UTC, nil for NULL.
func TimeOrNil(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}
