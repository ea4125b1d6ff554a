-- +goose Up
-- A domain is an account: the unit that owns portals, users and permission groups.
CREATE TABLE domains (
    id                INTEGER PRIMARY KEY AUTOINCREMENT,
    name              TEXT      NOT NULL,
    name_key          TEXT      NOT NULL UNIQUE, -- lower(name)
    logo              BLOB      NULL,
    logo_content_type TEXT      NOT NULL DEFAULT '',
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL
);

CREATE TABLE domain_users (
    domain_id  INTEGER   NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    user_id    INTEGER   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (domain_id, user_id)
);
CREATE INDEX domain_users_user_id ON domain_users (user_id);

-- Permission groups (the spec's roles / account groups) are per domain.
CREATE TABLE permission_groups (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    domain_id  INTEGER   NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
    name       TEXT      NOT NULL,
    name_key   TEXT      NOT NULL,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (domain_id, name_key)
);

CREATE TABLE group_permissions (
    group_id   INTEGER NOT NULL REFERENCES permission_groups (id) ON DELETE CASCADE,
    permission TEXT    NOT NULL, -- expanded and lowercase, e.g. asset_write
    PRIMARY KEY (group_id, permission)
);

-- A user holds groups in the domains they belong to.
CREATE TABLE user_groups (
    domain_id INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    group_id  INTEGER NOT NULL REFERENCES permission_groups (id) ON DELETE CASCADE,
    PRIMARY KEY (user_id, group_id),
    FOREIGN KEY (domain_id, user_id) REFERENCES domain_users (domain_id, user_id) ON DELETE CASCADE
);
CREATE INDEX user_groups_domain_user ON user_groups (domain_id, user_id);

-- +goose Down
DROP TABLE user_groups;
DROP TABLE group_permissions;
DROP TABLE permission_groups;
DROP TABLE domain_users;
DROP TABLE domains;
