//! The database schema, as ordered migrations run at start (embedded SQL, the same text for
//! SQLite and PostgreSQL: only `TEXT`, `BIGINT` and, for the lab's fractional figures,
//! `DOUBLE PRECISION` columns).

use sqlx::{AnyPool, Row};

use super::StoreError;

/// `(version, statements)`: each migration runs once, in order, in one transaction.
const MIGRATIONS: &[(i64, &[&str])] = &[
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
        4,
        &[
            // Takeback and rematch offers between friends, and the last notice of a game
            // (game_service: abort, takeback, rematch, draw answers).
            "ALTER TABLE games ADD COLUMN takeback_offer TEXT",
            "ALTER TABLE games ADD COLUMN rematch_offer TEXT",
            "ALTER TABLE games ADD COLUMN notice TEXT",
        ],
    ),
];

/// Brings the schema up to date.
pub(super) async fn migrate(pool: &AnyPool) -> Result<(), StoreError> {
    sqlx::query("CREATE TABLE IF NOT EXISTS icebound_schema (version BIGINT PRIMARY KEY)")
        .execute(pool)
        .await?;
    // Each migration runs unless its own number is recorded (not "any number below the
    // highest"): migrations written on different branches may land in either order.
    let applied: Vec<i64> = sqlx::query("SELECT version FROM icebound_schema")
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| r.try_get("version"))
        .collect::<Result<_, _>>()?;
    for (version, statements) in MIGRATIONS {
        if applied.contains(version) {
            continue;
        }
        let mut tx = pool.begin().await?;
        for statement in *statements {
            sqlx::query(statement).execute(&mut *tx).await?;
        }
        sqlx::query("INSERT INTO icebound_schema (version) VALUES ($1)")
            .bind(*version)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        tracing::info!(version, "database schema migrated");
    }
    Ok(())
}
