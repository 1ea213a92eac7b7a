-- DokoBot schema 2: small key/value facts about the bot itself
-- (for instance the fingerprint of the last slash-command sync).

CREATE TABLE bot_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
