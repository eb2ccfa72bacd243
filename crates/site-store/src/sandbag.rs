//! Sandbagging (issue 41, migration 34; thresholds in `site_model::sandbag`): the quick rated
//! losses (`quick_losses`, one row per game) and the warnings and holds they bring
//! (`sandbag_watch`, one row per account, opponent (`*` for anyone) and stage).
//!
//! Everything here runs in the transaction that ends and rates a game (`ratings::rate_if_over`),
//! after both accounts are locked, so two games ending at once, in any rating pools, count
//! each other. A warning or
//! a hold is written once: `sandbag_watch`'s key is (account, opponent, stage) and a row is only
//! replaced once its time is over, so the notification that goes with a warning is made by the
//! one write that inserted (or renewed) the row.

use game::Color;
use site_model::notifications::NotificationKind;
use site_model::ratings::Unrated;
use site_model::sandbag::{
    ANY_HOLD, ANY_WARN, HOLD_MS, PAIR_HOLD, PAIR_WARN, WINDOW_MS, is_quick_loss,
};
use sqlx::{Any, Row, Transaction};

use super::games::GameRow;
use super::notifications::{NewNotification, insert_many};

/// The opponent key of a stage about every opponent.
const ANYONE: &str = "*";

/// Why the game between `a` and `b` must not count before it is rated: one of them is marked
/// by a moderator, or held for sandbagging (against the other, or against anyone) at `now`.
pub(super) async fn blocked_from_rating(
    tx: &mut Transaction<'_, Any>,
    a: &str,
    b: &str,
    now: i64,
) -> Result<Option<Unrated>, sqlx::Error> {
    let marked: i64 =
        sqlx::query("SELECT COUNT(*) AS n FROM accounts WHERE id IN ($1, $2) AND mark IS NOT NULL")
            .bind(a)
            .bind(b)
            .fetch_one(&mut **tx)
            .await?
            .try_get("n")?;
    if marked > 0 {
        return Ok(Some(Unrated::Marked));
    }
    let held: i64 = sqlx::query(
        "SELECT COUNT(*) AS n FROM sandbag_watch WHERE stage = 'hold' AND ends_at > $3 AND \
         ((account_id = $1 AND opponent_id IN ($2, '*')) OR \
          (account_id = $2 AND opponent_id IN ($1, '*')))",
    )
    .bind(a)
    .bind(b)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?
    .try_get("n")?;
    Ok((held > 0).then_some(Unrated::Sandbag))
}

/// Writes stage `stage` of `account` against `opponent` until `until`, unless one is still in
/// force: whether this call wrote it (so its consequence is made once).
async fn enter_stage(
    tx: &mut Transaction<'_, Any>,
    account: &str,
    opponent: &str,
    stage: &str,
    now: i64,
    until: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO sandbag_watch (account_id, opponent_id, stage, at, ends_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id, opponent_id, stage) DO UPDATE \
         SET at = excluded.at, ends_at = excluded.ends_at WHERE sandbag_watch.ends_at <= excluded.at",
    )
    .bind(account)
    .bind(opponent)
    .bind(stage)
    .bind(now)
    .bind(until)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Records `g` if it is a quick loss of one account (`white`/`black`: the seats' account ids)
/// and enters the stages it reaches: a warning (its notification to the loser, once), or a
/// hold. True when this game must not count (it reached a hold).
pub(super) async fn record(
    tx: &mut Transaction<'_, Any>,
    g: &GameRow,
    white: &str,
    black: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let Some(winner) = g.winner else {
        return Ok(false);
    };
    if !is_quick_loss(g.reason, g.ply) {
        return Ok(false);
    }
    let (loser, won, seat, winner_name) = match winner {
        Color::White => (black, white, &g.black, &g.white.name),
        Color::Black => (white, black, &g.white, &g.black.name),
    };
    sqlx::query(
        "INSERT INTO quick_losses (game_id, loser_id, winner_id, at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT DO NOTHING",
    )
    .bind(&g.id)
    .bind(loser)
    .bind(won)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    let since = now - WINDOW_MS;
    let row = sqlx::query(
        "SELECT COUNT(*) AS n, SUM(CASE WHEN winner_id = $2 THEN 1 ELSE 0 END) AS pair \
         FROM quick_losses WHERE loser_id = $1 AND at > $3",
    )
    .bind(loser)
    .bind(won)
    .bind(since)
    .fetch_one(&mut **tx)
    .await?;
    let any: i64 = row.try_get("n")?;
    let pair: Option<i64> = row.try_get("pair")?;
    let pair = pair.unwrap_or(0);
    let until = now + HOLD_MS;
    let mut hold = false;
    if pair >= PAIR_HOLD {
        enter_stage(tx, loser, won, "hold", now, until).await?;
        hold = true;
    }
    if any >= ANY_HOLD {
        enter_stage(tx, loser, ANYONE, "hold", now, until).await?;
        hold = true;
    }
    let mut warn = false;
    if pair >= PAIR_WARN {
        warn |= enter_stage(tx, loser, won, "warn", now, until).await?;
    }
    if any >= ANY_WARN {
        warn |= enter_stage(tx, loser, ANYONE, "warn", now, until).await?;
    }
    if warn && let Some(owner) = seat.token.clone() {
        let note = NewNotification {
            owner,
            kind: NotificationKind::SandbagWarning,
            game: Some(g.id.clone()),
            tournament: None,
            by: winner_name.clone(),
            text: "You lost many rated games quickly. If this goes on, your rated games will \
                   stop counting for a week."
                .to_string(),
            event_key: format!("sandbag:{}", g.id),
        };
        insert_many(tx, &[note], now).await?;
    }
    tracing::info!(game = %g.id, loser, pair, any, warn, hold, "quick rated loss");
    Ok(hold)
}
