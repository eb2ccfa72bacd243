//! The database schema, as ordered migrations run at start (embedded SQL, the same text for
//! SQLite and PostgreSQL: only `TEXT`, `BIGINT` and, for the lab's fractional figures,
//! `DOUBLE PRECISION` columns).

use sqlx::{Any, AnyPool, Row, Transaction};

use super::StoreError;

use super::migrations::MIGRATIONS;

/// The steps of a migration that SQL alone cannot do (SQLite has no SHA-256), run after its
/// statements in its transaction.
async fn data_step(version: i64, tx: &mut Transaction<'_, Any>) -> Result<(), StoreError> {
    match version {
        3 => super::secrets::hash_stored_secrets(tx).await,
        13 => super::games::fill_speeds(tx).await,
        26 => super::accounts::fill_skeletons(tx).await,
        _ => Ok(()),
    }
}

/// How many migrations are recorded as applied (0 before the first, or when unreadable).
pub(super) async fn recorded(pool: &AnyPool) -> i64 {
    sqlx::query("SELECT COUNT(*) FROM icebound_schema")
        .fetch_one(pool)
        .await
        .and_then(|r| r.try_get::<i64, _>(0))
        .unwrap_or(0)
}

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
        data_step(*version, &mut tx).await?;
        sqlx::query("INSERT INTO icebound_schema (version) VALUES ($1)")
            .bind(*version)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        tracing::info!(version, "database schema migrated");
    }
    Ok(())
}
