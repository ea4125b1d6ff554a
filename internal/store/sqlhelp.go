package store

import (
	"database/sql"
	"strings"
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

// EscapeLike escapes a LIKE pattern's wildcards (use with ESCAPE '\\').
func EscapeLike(s string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(s)
}
