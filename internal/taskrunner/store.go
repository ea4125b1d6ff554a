package taskrunner

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"portalwright/internal/store"
)

// SQLStore keeps the last state of every user's workspace of a portal (table
// task_runner_states, migration 00013), so a restart can Restore them: the API's
// Config.OnChange saves, startup loads.
type SQLStore struct{ db *store.DB }

// NewSQLStore returns the state store over db.
func NewSQLStore(db *store.DB) *SQLStore { return &SQLStore{db: db} }

// Save stores the state of k (one row per user and portal, replaced).
func (s *SQLStore) Save(ctx context.Context, k Key, st State) error {
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO task_runner_states (user_id, portal_id, state, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (user_id, portal_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
		k.UserID, k.PortalID, string(data), time.Now().UTC())
	return err
}

// Stored is one saved state.
type Stored struct {
	Key   Key
	State State
}

// All loads every saved state (startup: Runner.Restore each).
func (s *SQLStore) All(ctx context.Context) ([]Stored, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT user_id, portal_id, state FROM task_runner_states`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Stored
	for rows.Next() {
		var st Stored
		var data string
		if err := rows.Scan(&st.Key.UserID, &st.Key.PortalID, &data); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(data), &st.State); err != nil {
			return nil, fmt.Errorf("task runner state of user %d, portal %d: %w", st.Key.UserID, st.Key.PortalID, err)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}
