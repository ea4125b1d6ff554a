package identity

import (
	"context"
	"strings"
)

// usersBatch bounds the ids of one query (SQLite allows 32,766 parameters, PostgreSQL 65,535).
const usersBatch = 500

// UsersByIDs finds many users in one query per 500 ids; ids that do not exist are left out.
func (s *SQLStore) UsersByIDs(ctx context.Context, ids []int64) ([]User, error) {
	out := make([]User, 0, len(ids))
	for start := 0; start < len(ids); start += usersBatch {
		chunk := ids[start:min(start+usersBatch, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		rows, err := s.db.QueryContext(ctx, "SELECT "+userColumns+" FROM users WHERE id IN (?"+strings.Repeat(", ?", len(chunk)-1)+")", args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			u, err := scanUser(rows)
			if err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, *u)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// UsersByIDs looks up many users at once (other users' changes of a portal); unknown ids are
// left out.
func (s *Service) UsersByIDs(ctx context.Context, ids []int64) ([]User, error) {
	if len(ids) == 0 {
		return []User{}, nil
	}
	return s.store.UsersByIDs(ctx, ids)
}
