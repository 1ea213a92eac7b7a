-- DokoBot schema 1: servers, players, tables, sessions, games and their actions.
-- Every row that belongs to a server carries its guild_id.

CREATE TABLE guilds (
    guild_id          INTEGER PRIMARY KEY,
    rules             TEXT    NOT NULL DEFAULT '{}',   -- RuleSet as JSON (keys that differ from DDV)
    table_defaults    TEXT    NOT NULL DEFAULT '{}',
    leaderboard_epoch INTEGER NOT NULL DEFAULT 0,      -- bumped by a leaderboard reset
    next_game_number  INTEGER NOT NULL DEFAULT 1
);

-- Discord users (positive ids) and AI players (negative ids).
CREATE TABLE players (
    player_id    INTEGER PRIMARY KEY,
    display_name TEXT    NOT NULL,
    is_ai        INTEGER NOT NULL DEFAULT 0 CHECK (is_ai IN (0, 1)),
    deleted      INTEGER NOT NULL DEFAULT 0 CHECK (deleted IN (0, 1))
);

CREATE TABLE tables (
    table_id   INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL REFERENCES guilds (guild_id),
    channel_id INTEGER NOT NULL,
    owner_id   INTEGER REFERENCES players (player_id),
    status     TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'playing', 'closed')),
    message_id INTEGER,
    settings   TEXT    NOT NULL DEFAULT '{}',
    created_at TEXT    NOT NULL,
    closed_at  TEXT
);
CREATE UNIQUE INDEX tables_live_channel ON tables (channel_id) WHERE status != 'closed';
CREATE INDEX tables_status ON tables (status);

CREATE TABLE table_seats (
    table_id  INTEGER NOT NULL REFERENCES tables (table_id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id INTEGER NOT NULL REFERENCES players (player_id),
    PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;

CREATE TABLE sessions (
    session_id   INTEGER PRIMARY KEY,
    table_id     INTEGER NOT NULL REFERENCES tables (table_id),
    guild_id     INTEGER NOT NULL REFERENCES guilds (guild_id),
    rules        TEXT    NOT NULL DEFAULT '{}',
    first_dealer INTEGER NOT NULL DEFAULT 0,
    deals        INTEGER,
    seed         INTEGER NOT NULL,
    started_at   TEXT    NOT NULL,
    ended_at     TEXT
);
CREATE INDEX sessions_table ON sessions (table_id);

CREATE TABLE games (
    game_id     INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL REFERENCES guilds (guild_id),
    number      INTEGER NOT NULL,                     -- per server, shown to players
    session_id  INTEGER NOT NULL REFERENCES sessions (session_id),
    seq         INTEGER NOT NULL,                     -- game index within the session
    dealer      INTEGER NOT NULL CHECK (dealer BETWEEN 0 AND 3),
    header      TEXT    NOT NULL,                     -- the record without its actions
    status      TEXT    NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'finished', 'aborted')),
    contract    TEXT,
    soloist     INTEGER,
    winner      TEXT,
    game_value  INTEGER,
    result      TEXT,                                 -- the replay outcome as JSON
    epoch       INTEGER NOT NULL DEFAULT 0,
    started_at  TEXT    NOT NULL,
    finished_at TEXT,
    UNIQUE (guild_id, number),
    UNIQUE (session_id, seq)
);
CREATE INDEX games_running ON games (status) WHERE status = 'running';
CREATE INDEX games_guild_finished ON games (guild_id, finished_at);

-- One row per action, committed before anyone sees its effect.
CREATE TABLE game_actions (
    game_id INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    idx     INTEGER NOT NULL,
    action  TEXT    NOT NULL,
    at      TEXT    NOT NULL,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;

-- Each seat of each game and its score change (filled when the game ends).
CREATE TABLE game_seats (
    game_id   INTEGER NOT NULL REFERENCES games (game_id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 3),
    player_id INTEGER NOT NULL REFERENCES players (player_id),
    party     TEXT,
    score     INTEGER,
    won       INTEGER,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX game_seats_player ON game_seats (player_id);

-- Leaderboard aggregates, kept in step with finished games in the same transaction:
-- per day for time windows, and in total for the all-time board.
CREATE TABLE player_days (
    guild_id  INTEGER NOT NULL,
    epoch     INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (player_id),
    day       TEXT    NOT NULL,
    points    INTEGER NOT NULL DEFAULT 0,
    games     INTEGER NOT NULL DEFAULT 0,
    won       INTEGER NOT NULL DEFAULT 0,
    solos     INTEGER NOT NULL DEFAULT 0,
    solos_won INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, epoch, day, player_id)
) WITHOUT ROWID;

CREATE TABLE player_totals (
    guild_id  INTEGER NOT NULL,
    epoch     INTEGER NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players (player_id),
    points    INTEGER NOT NULL DEFAULT 0,
    games     INTEGER NOT NULL DEFAULT 0,
    won       INTEGER NOT NULL DEFAULT 0,
    solos     INTEGER NOT NULL DEFAULT 0,
    solos_won INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, epoch, player_id)
) WITHOUT ROWID;
