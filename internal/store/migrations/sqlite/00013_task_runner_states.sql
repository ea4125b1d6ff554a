-- +goose Up
-- The last task runner state of each user's workspace of a portal (issue 13, spec 3 §3 Task
-- runner state), as JSON: after a restart the states come back, none left RUNNING.
CREATE TABLE task_runner_states (
    user_id    INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    portal_id  INTEGER   NOT NULL REFERENCES portals (id) ON DELETE CASCADE,
    state      TEXT      NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, portal_id)
);
CREATE INDEX task_runner_states_portal_id ON task_runner_states (portal_id);

-- +goose Down
DROP TABLE task_runner_states;
