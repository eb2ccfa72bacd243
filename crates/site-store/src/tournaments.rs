//! The `tournaments` and `tournament_players` tables (migration 23, issue 40): events, their
//! entries, and the changes of an event's state. The pairings are `tournament_pairings`.
//!
//! Every change a page shows moves `version` on, in the change's own statement or
//! transaction, so that a stream reading only the version sees changes made by any process.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::conn::commit;
use super::notifications::{self, NewNotification};
use super::{Store, StoreError, corrupt};
use site_model::clock::TimeControl;
use site_model::state::GameKind;
use site_model::tournament::{Conditions, TournamentKind, TournamentStatus};

/// One event as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRow {
    /// Public id (8 letters and digits).
    pub id: String,
    /// Arena, Swiss or round robin.
    pub kind: TournamentKind,
    /// The game.
    pub variant: GameKind,
    /// Its name as shown.
    pub name: String,
    /// The games' time control (validated; never unlimited).
    pub control: TimeControl,
    /// Whether its games are rated.
    pub rated: bool,
    /// Where it is.
    pub status: TournamentStatus,
    /// The creating account's id; `None` for a scheduled event.
    pub created_by: Option<String>,
    /// Unix ms of the planned start.
    pub starts_at: i64,
    /// An arena's length, minutes.
    pub minutes: Option<i64>,
    /// A Swiss event's rounds (a round robin's, once started).
    pub rounds: Option<i64>,
    /// A round robin played twice, colours swapped.
    pub double: bool,
    /// Fewer players at the start cancel it.
    pub min_players: i64,
    /// No entry past this many.
    pub max_players: i64,
    /// What a player needs to join.
    pub conditions: Conditions,
    /// The pairing counter: the last round paired (Swiss, round robin) or arena wave.
    pub round: i64,
    /// Unix ms of the real start.
    pub started_at: Option<i64>,
    /// Unix ms of an arena's end.
    pub ends_at: Option<i64>,
    /// Unix ms of the end.
    pub finished_at: Option<i64>,
    /// A scheduled event's key (`daily-arena-antarctos-180+2-2026-12-06-1800`): unique.
    pub schedule_key: Option<String>,
    /// A finished event's winners (the names in first place); empty before.
    pub winners: Vec<String>,
    /// Change counter.
    pub version: i64,
    /// Unix ms.
    pub created_at: i64,
}

const COLUMNS: &str = "id, kind, variant, name, time_control, rated, status, created_by, \
     starts_at, minutes, rounds, double_rr, min_players, max_players, conditions, round, \
     started_at, ends_at, finished_at, schedule_key, version, created_at, winners";

/// [`COLUMNS`] of the table named `t` in a join.
const T_COLUMNS: &str = "t.id, t.kind, t.variant, t.name, t.time_control, t.rated, t.status, \
     t.created_by, t.starts_at, t.minutes, t.rounds, t.double_rr, t.min_players, \
     t.max_players, t.conditions, t.round, t.started_at, t.ends_at, t.finished_at, \
     t.schedule_key, t.version, t.created_at, t.winners";

fn text_column<T>(
    row: &AnyRow,
    column: &str,
    parse: fn(&str) -> Option<T>,
) -> Result<T, sqlx::Error> {
    let text: String = row.try_get(column)?;
    parse(&text).ok_or_else(|| corrupt(column, format!("unknown value '{text}'")))
}

fn from_row(row: &AnyRow) -> Result<TournamentRow, sqlx::Error> {
    let control: String = row.try_get("time_control")?;
    let conditions: String = row.try_get("conditions")?;
    Ok(TournamentRow {
        id: row.try_get("id")?,
        kind: text_column(row, "kind", TournamentKind::parse)?,
        variant: text_column(row, "variant", GameKind::parse)?,
        name: row.try_get("name")?,
        control: serde_json::from_str(&control)
            .map_err(|e| corrupt("time_control", format!("'{control}': {e}")))?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        status: text_column(row, "status", TournamentStatus::parse)?,
        created_by: row.try_get("created_by")?,
        starts_at: row.try_get("starts_at")?,
        minutes: row.try_get("minutes")?,
        rounds: row.try_get("rounds")?,
        double: row.try_get::<i64, _>("double_rr")? != 0,
        min_players: row.try_get("min_players")?,
        max_players: row.try_get("max_players")?,
        conditions: serde_json::from_str(&conditions)
            .map_err(|e| corrupt("conditions", format!("'{conditions}': {e}")))?,
        round: row.try_get("round")?,
        started_at: row.try_get("started_at")?,
        ends_at: row.try_get("ends_at")?,
        finished_at: row.try_get("finished_at")?,
        schedule_key: row.try_get("schedule_key")?,
        winners: match row.try_get::<Option<String>, _>("winners")? {
            None => Vec::new(),
            Some(text) => serde_json::from_str(&text)
                .map_err(|e| corrupt("winners", format!("'{text}': {e}")))?,
        },
        version: row.try_get("version")?,
        created_at: row.try_get("created_at")?,
    })
}

/// Inserts `t` (nothing when its `schedule_key` is taken): whether it was.
async fn insert<'c, E>(executor: E, t: &TournamentRow) -> Result<bool, sqlx::Error>
where
    E: sqlx::Executor<'c, Database = Any>,
{
    let control = serde_json::to_string(&t.control).unwrap_or_default();
    let conditions = serde_json::to_string(&t.conditions).unwrap_or_default();
    let done = sqlx::query(&format!(
        "INSERT INTO tournaments ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, \
         $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23) ON CONFLICT DO NOTHING"
    ))
    .bind(&t.id)
    .bind(t.kind.as_str())
    .bind(t.variant.as_str())
    .bind(&t.name)
    .bind(control)
    .bind(i64::from(t.rated))
    .bind(t.status.as_str())
    .bind(&t.created_by)
    .bind(t.starts_at)
    .bind(t.minutes)
    .bind(t.rounds)
    .bind(i64::from(t.double))
    .bind(t.min_players)
    .bind(t.max_players)
    .bind(conditions)
    .bind(t.round)
    .bind(t.started_at)
    .bind(t.ends_at)
    .bind(t.finished_at)
    .bind(&t.schedule_key)
    .bind(t.version)
    .bind(t.created_at)
    .bind(serde_json::to_string(&t.winners).unwrap_or_default())
    .execute(executor)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Moves event `id`'s version on (in the caller's transaction).
pub(super) async fn bump(tx: &mut Transaction<'_, Any>, id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE tournaments SET version = version + 1 WHERE id = $1")
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

impl Store {
    /// Stores a new event. `Ok(false)`: its `schedule_key` is stored already (another process
    /// made this occurrence of a scheduled event first).
    pub async fn insert_tournament(&self, t: &TournamentRow) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async { Ok(insert(&mut *conn.raw(), t).await?) }.await;
                (conn, result)
            })
        })
        .await
    }

    /// Stores account `by`'s new event `t` unless `by` has `max_open` events not yet over
    /// (created or started): `Err(n)` then, with their count. The count and the insert share
    /// one transaction that first takes the account's row, so creations at once pass the
    /// limit by none.
    pub async fn create_tournament(
        &self,
        t: &TournamentRow,
        by: &str,
        max_open: i64,
    ) -> Result<Result<(), i64>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    sqlx::query("UPDATE accounts SET id = id WHERE id = $1")
                        .bind(by)
                        .execute(&mut *tx)
                        .await?;
                    let open: i64 = sqlx::query(
                        "SELECT COUNT(*) AS n FROM tournaments WHERE created_by = $1 AND \
                         status IN ('created', 'started')",
                    )
                    .bind(by)
                    .fetch_one(&mut *tx)
                    .await?
                    .try_get("n")?;
                    if open >= max_open {
                        return Ok(Err(open));
                    }
                    insert(&mut *tx, t).await?;
                    commit(tx).await?;
                    Ok(Ok(()))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Event `id`, if stored.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row =
                        sqlx::query(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"))
                            .bind(id)
                            .fetch_optional(conn.raw())
                            .await?;
                    Ok(row.as_ref().map(from_row).transpose()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Event `id`'s version (`None`: no such event): what a stream polls.
    pub async fn tournament_version(&self, id: &str) -> Result<Option<i64>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query("SELECT version FROM tournaments WHERE id = $1")
                        .bind(id)
                        .fetch_optional(conn.raw())
                        .await?;
                    Ok(row.map(|r| r.try_get::<i64, _>("version")).transpose()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Up to `limit` events in `status`: the upcoming soonest first, the others newest first.
    pub async fn tournaments_in(
        &self,
        status: TournamentStatus,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let order = match status {
            TournamentStatus::Created => "starts_at ASC, id ASC",
            _ => "starts_at DESC, id DESC",
        };
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {COLUMNS} FROM tournaments WHERE status = $1 ORDER BY {order} \
                         LIMIT $2"
                    ))
                    .bind(status.as_str())
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows.iter().map(from_row).collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The ids of the events a director must look at by `now` (Unix ms): started ones, and
    /// created ones whose start time has come.
    pub async fn tournaments_due(&self, now: i64) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id FROM tournaments WHERE status = 'started' OR \
                         (status = 'created' AND starts_at <= $1) ORDER BY starts_at",
                    )
                    .bind(now)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows
                        .iter()
                        .map(|r| r.try_get("id"))
                        .collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Starts event `id` if it is still created: numbers the entries (`tpns`: account id and
    /// number), sets the rounds (a round robin's, from its table) and an arena's end, and
    /// stores `notes` (its players told) in the same transaction.
    /// `false`: it was started or ended meanwhile.
    pub async fn start_tournament(
        &self,
        id: &str,
        tpns: &[(String, i64)],
        rounds: Option<i64>,
        now: i64,
        ends_at: Option<i64>,
        notes: &[NewNotification],
    ) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let done = sqlx::query(
                        "UPDATE tournaments SET status = 'started', started_at = $2, \
                         ends_at = $3, rounds = COALESCE($4, rounds), version = version + 1 \
                         WHERE id = $1 AND status = 'created'",
                    )
                    .bind(id)
                    .bind(now)
                    .bind(ends_at)
                    .bind(rounds)
                    .execute(&mut *tx)
                    .await?;
                    if done.rows_affected() == 0 {
                        return Ok(false);
                    }
                    for (account, tpn) in tpns {
                        sqlx::query(
                            "UPDATE tournament_players SET tpn = $3 WHERE tournament_id = $1 \
                             AND account_id = $2",
                        )
                        .bind(id)
                        .bind(account)
                        .bind(*tpn)
                        .execute(&mut *tx)
                        .await?;
                    }
                    notifications::insert_many(&mut tx, notes, now).await?;
                    commit(tx).await?;
                    Ok(true)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Ends event `id` as `status` (finished or canceled) at `now` with its `winners`, if it
    /// is not over yet: `false` when it was.
    pub async fn end_tournament(
        &self,
        id: &str,
        status: TournamentStatus,
        now: i64,
        winners: &[String],
    ) -> Result<bool, StoreError> {
        let winners = serde_json::to_string(winners).unwrap_or_default();
        let winners = &winners;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "UPDATE tournaments SET status = $2, finished_at = $3, winners = $4, \
                         version = version + 1 WHERE id = $1 AND status IN ('created', 'started')",
                    )
                    .bind(id)
                    .bind(status.as_str())
                    .bind(now)
                    .bind(winners)
                    .execute(conn.raw())
                    .await?;
                    Ok(done.rows_affected() == 1)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Moves a created event's start to `now` (its creator's "start now"): `false` when it is
    /// not created, or its start has come already (a second "start now" before the director
    /// started it).
    pub async fn start_tournament_now(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let done = sqlx::query(
                        "UPDATE tournaments SET starts_at = $2, version = version + 1 \
                         WHERE id = $1 AND status = 'created' AND starts_at > $2",
                    )
                    .bind(id)
                    .bind(now)
                    .execute(conn.raw())
                    .await?;
                    Ok(done.rows_affected() == 1)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The events account `account` entered, newest first, at most `limit`: the event and
    /// whether the account withdrew.
    pub async fn tournaments_of(
        &self,
        account: &str,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(&format!(
                        "SELECT {T_COLUMNS} FROM tournaments t JOIN tournament_players p ON \
                         p.tournament_id = t.id WHERE p.account_id = $1 ORDER BY t.starts_at \
                         DESC, t.id DESC LIMIT $2"
                    ))
                    .bind(account)
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows.iter().map(from_row).collect::<Result<_, _>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn joined_columns_are_the_columns_prefixed() {
        let prefixed: Vec<String> = super::COLUMNS
            .split(", ")
            .map(|c| format!("t.{c}"))
            .collect();
        assert_eq!(super::T_COLUMNS, prefixed.join(", "));
    }
}
