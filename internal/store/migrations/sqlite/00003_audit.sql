-- +goose Up
-- Who did what, when: sign-ins and administration actions (spec 3 §7 lookup/history).
CREATE TABLE audit_log (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    at          TIMESTAMP NOT NULL,
    category    TEXT      NOT NULL, -- SIGN_IN, USER, DOMAIN, GROUP, PREFERENCE, …
    action      TEXT      NOT NULL, -- LOGIN_SUCCEEDED, USER_CREATED, …
    actor_id    INTEGER   NULL,     -- no foreign key: the record outlives the user
    actor_name  TEXT      NOT NULL DEFAULT '',
    domain_id   INTEGER   NULL,
    entity_type TEXT      NOT NULL DEFAULT '',
    entity_id   TEXT      NOT NULL DEFAULT '',
    details     TEXT      NOT NULL DEFAULT '',
    client_addr TEXT      NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_at ON audit_log (at);
CREATE INDEX audit_log_entity ON audit_log (entity_type, entity_id);
CREATE INDEX audit_log_domain ON audit_log (domain_id);

-- +goose Down
DROP TABLE audit_log;
