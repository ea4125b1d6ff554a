-- +goose Up
-- Recovery while running (issue 23 item 3): a locked or loadable preview being prepared, and a
-- loadable being generated, beat; a sweeper on every instance marks FAILED what stopped beating.
-- owner names the process that runs the work (host, pid and start time), so that a starting
-- instance fails at once the work of a dead process on its own host.
ALTER TABLE previews ADD COLUMN heartbeat_at TIMESTAMP;
ALTER TABLE previews ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE loadables ADD COLUMN owner TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE loadables DROP COLUMN owner;
ALTER TABLE previews DROP COLUMN owner;
ALTER TABLE previews DROP COLUMN heartbeat_at;
