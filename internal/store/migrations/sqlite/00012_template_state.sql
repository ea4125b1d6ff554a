-- +goose Up
-- Templates carry where they were made from and the state of their last create or update
-- (spec 3 §3 Template: url, updating flag, updateError; issue 9 item 7).
ALTER TABLE templates ADD COLUMN url TEXT NOT NULL DEFAULT '';
ALTER TABLE templates ADD COLUMN updating BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE templates ADD COLUMN update_error TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE templates DROP COLUMN update_error;
ALTER TABLE templates DROP COLUMN updating;
ALTER TABLE templates DROP COLUMN url;
