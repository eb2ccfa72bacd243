//! The migrations (the runner is `schema`): each `(version, statements)` runs once, in
//! order, in one transaction; the same SQL text for SQLite and PostgreSQL (only `TEXT`,
//! `BIGINT` and `DOUBLE PRECISION` columns). A new one goes at the end with the next number.

/// `(version, statements)`.
pub(super) const MIGRATIONS: &[(i64, &[&str])] = &[
    (
        1,
        &[
            "CREATE TABLE IF NOT EXISTS games (
            id TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            start_fen TEXT NOT NULL,
            white_kind TEXT NOT NULL, white_level BIGINT, white_token TEXT,
            black_kind TEXT NOT NULL, black_level BIGINT, black_token TEXT,
            invite TEXT UNIQUE,
            status TEXT NOT NULL,
            result TEXT, winner TEXT, reason TEXT,
            draw_offer TEXT,
            rematch_of TEXT, rematch TEXT,
            ply BIGINT NOT NULL,
            turn TEXT NOT NULL,
            version BIGINT NOT NULL,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS games_white_token ON games (white_token)",
            "CREATE INDEX IF NOT EXISTS games_black_token ON games (black_token)",
            "CREATE INDEX IF NOT EXISTS games_status ON games (status, variant)",
            "CREATE TABLE IF NOT EXISTS moves (
            game_id TEXT NOT NULL REFERENCES games (id),
            ply BIGINT NOT NULL,
            move_id TEXT NOT NULL,
            move_text TEXT NOT NULL,
            fen TEXT NOT NULL,
            event TEXT,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (game_id, ply)
        )",
        ],
    ),
    (
        2,
        &[
            // One row per finished `icebound selfplay` / `icebound match` run (store/lab_runs.rs).
            "CREATE TABLE IF NOT EXISTS lab_runs (
            id TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            kind TEXT NOT NULL,
            setting TEXT NOT NULL,
            setting_b TEXT,
            seed TEXT NOT NULL,
            random_plies BIGINT NOT NULL,
            max_plies BIGINT NOT NULL,
            games BIGINT NOT NULL,
            white_wins BIGINT NOT NULL, black_wins BIGINT NOT NULL, draws BIGINT NOT NULL,
            capped BIGINT NOT NULL,
            end_reasons TEXT NOT NULL,
            mean_plies DOUBLE PRECISION, longest_plies BIGINT NOT NULL,
            white_score DOUBLE PRECISION, white_lower DOUBLE PRECISION,
            white_upper DOUBLE PRECISION,
            a_wins BIGINT, a_draws BIGINT, a_losses BIGINT,
            elo DOUBLE PRECISION, elo_error DOUBLE PRECISION,
            sprt TEXT, sprt_verdict TEXT, sprt_llr DOUBLE PRECISION,
            duration_ms BIGINT NOT NULL,
            version TEXT NOT NULL,
            finished_at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS lab_runs_newest ON lab_runs (variant, kind, finished_at)",
        ],
    ),
    (
        3,
        &[
            // Secrets at rest (store/secrets.rs): the token-signing secret, and the hashes of
            // the unsigned tokens that held seats before; then every stored token and
            // invitation is replaced by its SHA-256 hash (hash_stored_secrets, in the same
            // transaction).
            "CREATE TABLE IF NOT EXISTS site_secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL)",
            "CREATE TABLE IF NOT EXISTS legacy_players (token_hash TEXT PRIMARY KEY)",
        ],
    ),
    (
        4,
        &[
            // Takeback and rematch offers between friends, and the last notice of a game
            // (site::play: abort, takeback, rematch, draw answers).
            "ALTER TABLE games ADD COLUMN takeback_offer TEXT",
            "ALTER TABLE games ADD COLUMN rematch_offer TEXT",
            "ALTER TABLE games ADD COLUMN notice TEXT",
        ],
    ),
    (
        5,
        &[
            // Games imported into the analysis board (store/imports.rs): no seats, never in
            // the statistics or anyone's games; `record` is the game rewritten by the rules
            // crate's writer, `importer` the SHA-256 of the importing player's token.
            "CREATE TABLE IF NOT EXISTS imported_games (
            id TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            white TEXT NOT NULL, black TEXT NOT NULL, event TEXT NOT NULL,
            result TEXT NOT NULL,
            plies BIGINT NOT NULL,
            record TEXT NOT NULL,
            importer TEXT NOT NULL,
            created_at BIGINT NOT NULL
        )",
            // The computer analysis of a finished or imported game (store/reviews.rs): one
            // evaluation per position, appended as the background search goes.
            "CREATE TABLE IF NOT EXISTS reviews (
            subject TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            owner TEXT NOT NULL,
            status TEXT NOT NULL,
            nodes BIGINT NOT NULL,
            total BIGINT NOT NULL,
            done BIGINT NOT NULL,
            evals TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS reviews_status ON reviews (status)",
        ],
    ),
    (
        6,
        &[
            // Accounts (site::accounts): `username_key` is the name in lower case (unique
            // without regard to case), `password_hash` an argon2id PHC string.
            "CREATE TABLE IF NOT EXISTS accounts (
            id TEXT PRIMARY KEY,
            username TEXT NOT NULL,
            username_key TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            created_at BIGINT NOT NULL
        )",
            // Log-in sessions: the SHA-256 of the session cookie's token, never the token.
            "CREATE TABLE IF NOT EXISTS sessions (
            token_hash TEXT PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts (id),
            created_at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS sessions_account ON sessions (account_id)",
        ],
    ),
    (
        7,
        &[
            // Clocks (site_model::clock): the stored clock as JSON, and the instant its running side
            // is flagged, for the timeout sweeper (site::timeouts); rated games.
            "ALTER TABLE games ADD COLUMN clock TEXT",
            "ALTER TABLE games ADD COLUMN clock_deadline BIGINT",
            "ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0",
            "CREATE INDEX IF NOT EXISTS games_clock_deadline ON games (clock_deadline)",
            // The SHA-256 of the account's player token (`TokenKeys::account_token`), the
            // hash its seats hold: seats lead to their account. Filled at start for accounts
            // made before (store::accounts::fill_player_hashes).
            "ALTER TABLE accounts ADD COLUMN player_hash TEXT",
            "CREATE INDEX IF NOT EXISTS accounts_player_hash ON accounts (player_hash)",
        ],
    ),
    (
        8,
        &[
            // The lobby (site::lobby, store/seeks.rs, store/challenges.rs). `owner`,
            // `challenger` and `challenged` hold the SHA-256 of a player token, as seats do;
            // `time_control` is the control's JSON; `status` is `open`, `accepted` (then
            // `game_id` names the game), `declined` or `cancelled`; `expires_at` (Unix ms) is
            // refreshed by the owner's open lobby stream for real-time and unlimited offers,
            // NULL for correspondence ones, which wait until answered.
            "CREATE TABLE IF NOT EXISTS seeks (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            username TEXT,
            variant TEXT NOT NULL,
            time_control TEXT NOT NULL,
            rated BIGINT NOT NULL,
            color TEXT NOT NULL,
            status TEXT NOT NULL,
            game_id TEXT,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            expires_at BIGINT
        )",
            "CREATE INDEX IF NOT EXISTS seeks_status ON seeks (status, created_at)",
            "CREATE INDEX IF NOT EXISTS seeks_owner ON seeks (owner, status)",
            "CREATE TABLE IF NOT EXISTS challenges (
            id TEXT PRIMARY KEY,
            challenger TEXT NOT NULL,
            challenger_name TEXT NOT NULL,
            challenged TEXT NOT NULL,
            challenged_name TEXT NOT NULL,
            variant TEXT NOT NULL,
            time_control TEXT NOT NULL,
            rated BIGINT NOT NULL,
            color TEXT NOT NULL,
            status TEXT NOT NULL,
            game_id TEXT,
            created_at BIGINT NOT NULL,
            updated_at BIGINT NOT NULL,
            expires_at BIGINT
        )",
            "CREATE INDEX IF NOT EXISTS challenges_challenger ON challenges (challenger, status)",
            "CREATE INDEX IF NOT EXISTS challenges_challenged ON challenges (challenged, status)",
        ],
    ),
    (
        10,
        &[
            // Leases of work done by one process among several (store/leases.rs).
            "CREATE TABLE IF NOT EXISTS leases (
            name TEXT PRIMARY KEY,
            holder TEXT NOT NULL,
            expires_at BIGINT NOT NULL
        )",
        ],
    ),
    (
        9,
        &[
            // Glicko-2 ratings (site_model::ratings, store/ratings.rs): one row per account, game and
            // speed class, made at the account's first rated game in it.
            "CREATE TABLE IF NOT EXISTS ratings (
            account_id TEXT NOT NULL REFERENCES accounts (id),
            variant TEXT NOT NULL,
            speed TEXT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            rd DOUBLE PRECISION NOT NULL,
            volatility DOUBLE PRECISION NOT NULL,
            games BIGINT NOT NULL,
            last_game_at BIGINT NOT NULL,
            PRIMARY KEY (account_id, variant, speed)
        )",
            "CREATE INDEX IF NOT EXISTS ratings_board ON ratings (variant, speed, rating)",
            // The rating after each rated game, per player: the profile's graph.
            "CREATE TABLE IF NOT EXISTS rating_history (
            account_id TEXT NOT NULL REFERENCES accounts (id),
            variant TEXT NOT NULL,
            speed TEXT NOT NULL,
            game_id TEXT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            rd DOUBLE PRECISION NOT NULL,
            at BIGINT NOT NULL,
            PRIMARY KEY (account_id, game_id)
        )",
            "CREATE INDEX IF NOT EXISTS rating_history_at ON rating_history (account_id, at)",
            // A rated game's change of both ratings (JSON, `ratings::RatingChange`), set once in
            // the transaction that ends it, and the mean rating of its players before it (the
            // statistics' rating bands).
            "ALTER TABLE games ADD COLUMN rating_diff TEXT",
            "ALTER TABLE games ADD COLUMN rating_avg BIGINT",
        ],
    ),
    (
        11,
        &[
            // The account name of a seat's holder when it sat down logged in, shown beside
            // the board (GameView's seats).
            "ALTER TABLE games ADD COLUMN white_name TEXT",
            "ALTER TABLE games ADD COLUMN black_name TEXT",
        ],
    ),
    (
        12,
        &[
            // A game played offline against the computer in the browser and uploaded (issue
            // 42, site::upload): the SHA-256 of the uploading player and the upload's body, so
            // that the same upload twice stores one game. NULL for the games played on the site
            // (a unique index allows many NULLs in SQLite and PostgreSQL).
            "ALTER TABLE games ADD COLUMN upload_key TEXT",
            "CREATE UNIQUE INDEX IF NOT EXISTS games_upload_key ON games (upload_key)",
        ],
    ),
    (
        13,
        &[
            // Notifications (issue 38, store/notifications.rs): `owner` is the SHA-256 of a
            // player token, as seats hold; `event_key` names the event that made it, once per
            // owner; `read_at` is NULL while unread.
            "CREATE TABLE IF NOT EXISTS notifications (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            kind TEXT NOT NULL,
            game_id TEXT,
            by_name TEXT,
            text TEXT NOT NULL,
            event_key TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            read_at BIGINT
        )",
            "CREATE UNIQUE INDEX IF NOT EXISTS notifications_event ON notifications (owner, event_key)",
            "CREATE INDEX IF NOT EXISTS notifications_newest ON notifications (owner, created_at)",
            // The clock's speed class (`realtime`, `correspondence`; NULL unlimited), so that
            // the low-time reminders read correspondence deadlines alone; filled for the games
            // stored before by the data step (games::fill_speeds).
            "ALTER TABLE games ADD COLUMN speed TEXT",
            "CREATE INDEX IF NOT EXISTS games_speed_deadline ON games (speed, clock_deadline)",
        ],
    ),
    (
        14,
        &[
            // Web Push (issue 38, store/push.rs): one row per browser that subscribed (its push
            // service's endpoint URL and its two keys, base64url), for a player token's hash;
            // a notification is pushed once (`pushed_at`), claimed for a while by the process
            // that sends it (`push_lease`, Unix ms).
            "CREATE TABLE IF NOT EXISTS push_subscriptions (
            endpoint TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            p256dh TEXT NOT NULL,
            auth TEXT NOT NULL,
            created_at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS push_subscriptions_owner ON push_subscriptions (owner)",
            "ALTER TABLE notifications ADD COLUMN pushed_at BIGINT",
            "ALTER TABLE notifications ADD COLUMN push_lease BIGINT",
        ],
    ),
    (
        15,
        &[
            // Conditional premoves of correspondence games (issue 38, store/conditional.rs):
            // one line per game and side, entered when the game stood at `after_ply`, as JSON
            // `[{"id", "text"}, ...]`: the opponent's move, the reply, and so on.
            "CREATE TABLE IF NOT EXISTS conditional_moves (
            game_id TEXT NOT NULL,
            side TEXT NOT NULL,
            after_ply BIGINT NOT NULL,
            line TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (game_id, side)
        )",
        ],
    ),
    (
        16,
        &[
            // A real-time game's player whose pages all closed (site_model::state::Gone, JSON),
            // so that the opponent's countdown and claim hold across processes (issue 38).
            "ALTER TABLE games ADD COLUMN gone TEXT",
        ],
    ),
    (
        17,
        &[
            // Vacations (issue 38, store/vacations.rs): `[starts_at, ends_at)` Unix ms per
            // account, by its lower-case name (as the games' seats name it).
            "CREATE TABLE IF NOT EXISTS vacations (
            username_key TEXT NOT NULL,
            starts_at BIGINT NOT NULL,
            ends_at BIGINT NOT NULL,
            created_at BIGINT NOT NULL,
            PRIMARY KEY (username_key, starts_at)
        )",
        ],
    ),
    (
        18,
        &[
            // E-mail (issue 38, store/emails.rs): an account's address, verified once its
            // link (the SHA-256 of its token, until `verify_expires`) is followed; the kinds of
            // mail it takes; its unsubscribe token (which can only turn mail off). Password
            // resets: a token's SHA-256, its expiry, and when it was used (once).
            "CREATE TABLE IF NOT EXISTS account_emails (
            account_id TEXT PRIMARY KEY,
            email TEXT NOT NULL,
            verified_at BIGINT,
            verify_hash TEXT,
            verify_expires BIGINT,
            digest BIGINT NOT NULL DEFAULT 1,
            low_time BIGINT NOT NULL DEFAULT 1,
            unsubscribe TEXT NOT NULL UNIQUE
        )",
            "CREATE TABLE IF NOT EXISTS password_resets (
            token_hash TEXT PRIMARY KEY,
            account_id TEXT NOT NULL,
            expires_at BIGINT NOT NULL,
            used_at BIGINT
        )",
        ],
    ),
    (
        19,
        &[
            // The daily digest (issue 38, store/emails.rs): one row per account and UTC day,
            // made by the process that sends that day's digest (once, across processes).
            "CREATE TABLE IF NOT EXISTS digest_claims (
            account_id TEXT NOT NULL,
            day TEXT NOT NULL,
            claimed_at BIGINT NOT NULL,
            PRIMARY KEY (account_id, day)
        )",
        ],
    ),
    (
        20,
        &[
            // A new address waiting for its link while the verified one stays (a tester lost
            // the verified address, and account recovery, to a change that was never mailed).
            "ALTER TABLE account_emails ADD COLUMN pending TEXT",
        ],
    ),
    (
        21,
        &[
            // Puzzles (issue 39, store/puzzles.rs): each proven by the solver when mined; its
            // Glicko-2 rating moves with its solvers'. `ordinal` orders a game's puzzles as
            // imported (the seeds' examples first) and picks the daily puzzle.
            "CREATE TABLE IF NOT EXISTS puzzles (
            id TEXT PRIMARY KEY,
            variant TEXT NOT NULL,
            ordinal BIGINT NOT NULL,
            fen TEXT NOT NULL,
            moves TEXT NOT NULL,
            length BIGINT NOT NULL,
            themes TEXT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            rd DOUBLE PRECISION NOT NULL,
            volatility DOUBLE PRECISION NOT NULL,
            plays BIGINT NOT NULL,
            game TEXT NOT NULL,
            ply BIGINT NOT NULL,
            seen TEXT NOT NULL,
            hint TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            UNIQUE (variant, ordinal)
        )",
            "CREATE INDEX IF NOT EXISTS puzzles_rating ON puzzles (variant, rating)",
            // One row per puzzle and theme, so that a theme's puzzles near a rating are found
            // by an index.
            "CREATE TABLE IF NOT EXISTS puzzle_themes (
            variant TEXT NOT NULL,
            theme TEXT NOT NULL,
            puzzle_id TEXT NOT NULL REFERENCES puzzles (id),
            PRIMARY KEY (variant, theme, puzzle_id)
        )",
            // An account's puzzle rating per game (start 1500, RD 350, volatility 0.06).
            "CREATE TABLE IF NOT EXISTS puzzle_ratings (
            account_id TEXT NOT NULL REFERENCES accounts (id),
            variant TEXT NOT NULL,
            rating DOUBLE PRECISION NOT NULL,
            rd DOUBLE PRECISION NOT NULL,
            volatility DOUBLE PRECISION NOT NULL,
            updated_at BIGINT NOT NULL,
            PRIMARY KEY (account_id, variant)
        )",
            // An account's first attempt at a puzzle: the primary key makes it the only
            // one rated, across processes (a second attempt inserts nothing).
            "CREATE TABLE IF NOT EXISTS puzzle_attempts (
            account_id TEXT NOT NULL REFERENCES accounts (id),
            puzzle_id TEXT NOT NULL REFERENCES puzzles (id),
            variant TEXT NOT NULL,
            solved BIGINT NOT NULL,
            rated BIGINT NOT NULL,
            rating_before DOUBLE PRECISION,
            rating_after DOUBLE PRECISION,
            at BIGINT NOT NULL,
            PRIMARY KEY (account_id, puzzle_id)
        )",
            "CREATE INDEX IF NOT EXISTS puzzle_attempts_recent ON puzzle_attempts (account_id, at)",
        ],
    ),
    (
        22,
        &[
            // A puzzle out of service, with why (store/puzzle_upkeep.rs): an operator's
            // `puzzles retire`, or a row the start-up check cannot read. Kept, not deleted:
            // the shipped file would bring a deleted puzzle back at the next start.
            "ALTER TABLE puzzles ADD COLUMN retired TEXT NOT NULL DEFAULT ''",
        ],
    ),
    (
        23,
        &[
            // Tournaments (issue 40; store/tournaments.rs, store/tournament_pairings.rs).
            // `schedule_key` makes a scheduled event once across processes; `round` is the
            // pairing counter that a new round's (or arena wave's) transaction moves on only
            // from the value its pairer read, so one pairing is stored once; `version` moves
            // on with every change a page must show.
            "CREATE TABLE IF NOT EXISTS tournaments (
            id TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            variant TEXT NOT NULL,
            name TEXT NOT NULL,
            time_control TEXT NOT NULL,
            rated BIGINT NOT NULL,
            status TEXT NOT NULL,
            created_by TEXT,
            starts_at BIGINT NOT NULL,
            minutes BIGINT,
            rounds BIGINT,
            double_rr BIGINT NOT NULL,
            min_players BIGINT NOT NULL,
            max_players BIGINT NOT NULL,
            conditions TEXT NOT NULL,
            round BIGINT NOT NULL,
            started_at BIGINT,
            ends_at BIGINT,
            finished_at BIGINT,
            schedule_key TEXT UNIQUE,
            version BIGINT NOT NULL,
            created_at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments (status, starts_at)",
            "CREATE TABLE IF NOT EXISTS tournament_players (
            tournament_id TEXT NOT NULL REFERENCES tournaments (id),
            account_id TEXT NOT NULL,
            username TEXT NOT NULL,
            rating BIGINT NOT NULL,
            tpn BIGINT,
            joined_at BIGINT NOT NULL,
            withdrawn_at BIGINT,
            paused BIGINT NOT NULL,
            PRIMARY KEY (tournament_id, account_id)
        )",
            "CREATE INDEX IF NOT EXISTS tournament_players_account ON tournament_players (account_id)",
            // A result is written once (`result IS NULL` guards it) in the transaction of the
            // write that ends the game; the standings are computed from these rows, never kept.
            "CREATE TABLE IF NOT EXISTS tournament_pairings (
            tournament_id TEXT NOT NULL REFERENCES tournaments (id),
            round BIGINT NOT NULL,
            board BIGINT NOT NULL,
            white TEXT NOT NULL,
            black TEXT,
            game_id TEXT UNIQUE,
            result TEXT,
            plies BIGINT,
            berserk_white BIGINT NOT NULL,
            berserk_black BIGINT NOT NULL,
            created_at BIGINT NOT NULL,
            ended_at BIGINT,
            PRIMARY KEY (tournament_id, round, board)
        )",
        ],
    ),
    // 23 is another branch's (the runner takes gaps and either order).
    (
        24,
        &[
            // The per-account log-in guard (issue 41, store/login_guard.rs): per lower-case
            // username (existing or not), the GCRA time `tat` (Unix ms) of its checks, the
            // wrong passwords in a row and the earliest next check from an unknown address;
            // and the addresses (digests) each account logged in from.
            "CREATE TABLE IF NOT EXISTS login_guards (
            username_key TEXT PRIMARY KEY,
            tat BIGINT NOT NULL,
            failures BIGINT NOT NULL,
            next_at BIGINT NOT NULL
        )",
            "CREATE TABLE IF NOT EXISTS login_addresses (
            account_id TEXT NOT NULL REFERENCES accounts (id),
            address TEXT NOT NULL,
            at BIGINT NOT NULL,
            PRIMARY KEY (account_id, address)
        )",
        ],
    ),
    (
        25,
        &[
            // Seeks against floods (issue 41, store/seeks.rs): `address` is the digest of an
            // anonymous seeker's address (NULL for an account), counted against the cap per
            // address; `lasting` is 1 for a seek whose `expires_at` is a fixed end (an
            // anonymous correspondence seek's 24 h), which presence never moves.
            "ALTER TABLE seeks ADD COLUMN address TEXT",
            "ALTER TABLE seeks ADD COLUMN lasting BIGINT NOT NULL DEFAULT 0",
            "CREATE INDEX IF NOT EXISTS seeks_address ON seeks (address, status)",
        ],
    ),
    (
        26,
        &[
            // Lookalike usernames (issue 41, site_model::usernames): the name's skeleton key.
            // Filled for the accounts before (the oldest of a lookalike group keeps the key,
            // later ones NULL), then made unique (store/accounts.rs, fill_skeletons).
            "ALTER TABLE accounts ADD COLUMN username_skeleton TEXT",
        ],
    ),
    (
        27,
        &[
            // A game played as rated that did not count, and why (issue 41, store/ratings.rs:
            // `pair_limit`, the same two accounts' sixth rated game in 24 hours).
            "ALTER TABLE games ADD COLUMN unrated TEXT",
        ],
    ),
    (
        28,
        &[
            // Follows and blocks between accounts (issue 41, store/follows.rs, store/blocks.rs),
            // by account id; who follows whom is public, blocks are the blocker's alone.
            "CREATE TABLE IF NOT EXISTS follows (
            follower_id TEXT NOT NULL REFERENCES accounts (id),
            followed_id TEXT NOT NULL REFERENCES accounts (id),
            created_at BIGINT NOT NULL,
            PRIMARY KEY (follower_id, followed_id)
        )",
            "CREATE INDEX IF NOT EXISTS follows_followed ON follows (followed_id)",
            "CREATE TABLE IF NOT EXISTS blocks (
            blocker_id TEXT NOT NULL REFERENCES accounts (id),
            blocked_id TEXT NOT NULL REFERENCES accounts (id),
            created_at BIGINT NOT NULL,
            PRIMARY KEY (blocker_id, blocked_id)
        )",
            "CREATE INDEX IF NOT EXISTS blocks_blocked ON blocks (blocked_id)",
            // Reports of players (store/reports.rs): `status` is `open` or `closed`; one open
            // report per reporter, target and reason is the store's check.
            "CREATE TABLE IF NOT EXISTS reports (
            id TEXT PRIMARY KEY,
            reporter_id TEXT NOT NULL REFERENCES accounts (id),
            target_id TEXT NOT NULL REFERENCES accounts (id),
            reason TEXT NOT NULL,
            text TEXT NOT NULL,
            game_id TEXT,
            status TEXT NOT NULL,
            created_at BIGINT NOT NULL,
            closed_at BIGINT,
            closed_by TEXT
        )",
            "CREATE INDEX IF NOT EXISTS reports_status ON reports (status, created_at)",
            "CREATE INDEX IF NOT EXISTS reports_reporter ON reports (reporter_id, status)",
        ],
    ),
    (
        29,
        &[
            // Moderation (issue 41, store/moderation.rs): the moderator role, a mute's end
            // (Unix ms), a closed account's time, a booster/cheater mark.
            "ALTER TABLE accounts ADD COLUMN moderator BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE accounts ADD COLUMN muted_until BIGINT",
            "ALTER TABLE accounts ADD COLUMN closed_at BIGINT",
            "ALTER TABLE accounts ADD COLUMN mark TEXT",
            // Every moderator action, shown to moderators.
            "CREATE TABLE IF NOT EXISTS mod_log (
            id TEXT PRIMARY KEY,
            moderator TEXT NOT NULL,
            action TEXT NOT NULL,
            target TEXT NOT NULL,
            details TEXT NOT NULL,
            at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS mod_log_at ON mod_log (at)",
            // A refund of the points an opponent lost to a marked account (lila's
            // RatingRefund): the key makes it once per game and account.
            "CREATE TABLE IF NOT EXISTS rating_refunds (
            game_id TEXT NOT NULL,
            account_id TEXT NOT NULL,
            points DOUBLE PRECISION NOT NULL,
            at BIGINT NOT NULL,
            PRIMARY KEY (game_id, account_id)
        )",
        ],
    ),
    (
        30,
        &[
            // Game search (issue 41, store/game_search.rs): a player's games by colour, and all
            // games, each by status then newest first, so that a page of finished games is an
            // index range in its order. `status` is a column, not a partial index's WHERE:
            // SQLite without statistics preferred `games_status` to a partial index.
            "CREATE INDEX IF NOT EXISTS games_search_white ON games \
             (white_token, status, created_at, id)",
            "CREATE INDEX IF NOT EXISTS games_search_black ON games \
             (black_token, status, created_at, id)",
            "CREATE INDEX IF NOT EXISTS games_search_at ON games (status, created_at, id)",
        ],
    ),
    (
        32,
        &[
            // The tournament a notification is about (issue 40: "tournament starting", "your
            // game is ready"), linked from the bell and a push.
            "ALTER TABLE notifications ADD COLUMN tournament_id TEXT",
            // The tournament a game was paired in (set when made, never changed): the game
            // page links back to it and offers no rematch.
            "ALTER TABLE games ADD COLUMN tournament_id TEXT",
            // A finished event's winners (JSON list of names; several when tied on every
            // tie-break), written in the statement that finishes it, for the lists.
            "ALTER TABLE tournaments ADD COLUMN winners TEXT",
        ],
    ),
    (
        33,
        &[
            // Chat (issue 41, store/chat.rs): every message of every room, kept. `room` is
            // `game:<id>:players`, `game:<id>:watchers`, `tournament:<id>` or `lobby`; the
            // game's messages carry its id too. A message is free `text` or a canned `phrase`
            // code. The author is an account, or an anonymous player's token hash.
            "CREATE TABLE IF NOT EXISTS chat_messages (
            id TEXT PRIMARY KEY,
            room TEXT NOT NULL,
            game_id TEXT,
            author_id TEXT,
            author_hash TEXT NOT NULL,
            author_name TEXT,
            text TEXT,
            phrase TEXT,
            created_at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS chat_messages_room ON chat_messages (room, created_at, id)",
            // A player's chat setting: 1 = chat off in all their games and rooms.
            "ALTER TABLE accounts ADD COLUMN chat_off BIGINT NOT NULL DEFAULT 0",
            // The chat message a report is about, if any.
            "ALTER TABLE reports ADD COLUMN message_id TEXT",
        ],
    ),
    (
        34,
        &[
            // Sandbagging (issue 41, store/sandbag.rs): one row per quick rated loss (the
            // loser resigned, timed out or left early), counted per loser over 24 hours.
            "CREATE TABLE IF NOT EXISTS quick_losses (
            game_id TEXT PRIMARY KEY,
            loser_id TEXT NOT NULL,
            winner_id TEXT NOT NULL,
            at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS quick_losses_loser ON quick_losses (loser_id, at)",
            // Its warnings and holds: `stage` is `warn` or `hold`, `opponent_id` an account id
            // or `*` (anyone); the key makes each once while `ends_at` (Unix ms) is ahead.
            "CREATE TABLE IF NOT EXISTS sandbag_watch (
            account_id TEXT NOT NULL,
            opponent_id TEXT NOT NULL,
            stage TEXT NOT NULL,
            at BIGINT NOT NULL,
            ends_at BIGINT NOT NULL,
            PRIMARY KEY (account_id, opponent_id, stage)
        )",
            // Who may challenge an account (issue 41): NULL or `everyone`, `nobody`,
            // `following` (the players it follows).
            "ALTER TABLE accounts ADD COLUMN challenges_from TEXT",
        ],
    ),
    (
        35,
        &[
            // A seek's rating range (issue 41, store/seeks.rs): shown to and accepted by only
            // accounts whose rating in the seek's game and speed is within it (both ends
            // included); NULL: anyone.
            "ALTER TABLE seeks ADD COLUMN rating_min BIGINT",
            "ALTER TABLE seeks ADD COLUMN rating_max BIGINT",
        ],
    ),
    (
        36,
        &[
            // A player's preferences (issue 41, "Also"; store/profiles.rs): the JSON object of
            // `site_model::prefs::Prefs`, NULL: the defaults.
            "ALTER TABLE accounts ADD COLUMN prefs TEXT",
            // What a player writes on their profile: a short bio (text, at most 400
            // characters) and an ISO 3166-1 alpha-2 country code; NULL: none.
            "ALTER TABLE accounts ADD COLUMN bio TEXT",
            "ALTER TABLE accounts ADD COLUMN country TEXT",
        ],
    ),
    (
        37,
        &[
            // The chat rate across processes (issue 41, store/chat.rs): one row per author
            // (token hash), written first in each sending's transaction so that two sendings
            // of one author wait for each other; the count reads `chat_messages`.
            "CREATE TABLE IF NOT EXISTS chat_senders (
            author_hash TEXT PRIMARY KEY,
            last_at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS chat_messages_author ON chat_messages (author_hash, created_at)",
            // A player's per-game mute of the other player's chat (issue 41, finding 16: a
            // block binds accounts alone, an anonymous opponent is muted here): by token
            // hashes, so anonymous players mute and are muted too.
            "CREATE TABLE IF NOT EXISTS chat_game_mutes (
            game_id TEXT NOT NULL,
            muter_hash TEXT NOT NULL,
            muted_hash TEXT NOT NULL,
            PRIMARY KEY (game_id, muter_hash, muted_hash)
        )",
        ],
    ),
    (
        38,
        &[
            // A chat message a moderator removed (issue 41, hostile finding 7; store/chat.rs):
            // when, Unix ms; NULL: shown. Kept for the reports that quote it.
            "ALTER TABLE chat_messages ADD COLUMN removed_at BIGINT",
        ],
    ),
    (
        39,
        &[
            // Who has a page of the site open, in any process (issue 41, browser finding 2;
            // store/presence.rs): one row per player (token hash), pushed on by its open
            // notification streams, removed when the last one here closes.
            "CREATE TABLE IF NOT EXISTS site_presence (
            player_hash TEXT PRIMARY KEY,
            until_ms BIGINT NOT NULL
        )",
        ],
    ),
    (
        40,
        &[
            // Personal API tokens (issue 44, store/api_tokens.rs): the SHA-256 of the token,
            // never the token; its scopes as names joined by spaces (site_model::api_tokens).
            "CREATE TABLE IF NOT EXISTS api_tokens (
            id TEXT PRIMARY KEY,
            account_id TEXT NOT NULL REFERENCES accounts (id),
            token_hash TEXT NOT NULL UNIQUE,
            scopes TEXT NOT NULL,
            created_at BIGINT NOT NULL
        )",
            "CREATE INDEX IF NOT EXISTS api_tokens_account ON api_tokens (account_id)",
            // A BOT account (issue 44): since when, Unix ms; NULL: a person. Set for good by
            // its first token with the scope bot:play.
            "ALTER TABLE accounts ADD COLUMN bot_since BIGINT",
        ],
    ),
];
