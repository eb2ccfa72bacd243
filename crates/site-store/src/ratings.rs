//! The `ratings` and `rating_history` tables (migration 9) and the rating of a finished rated
//! game, done inside the transaction of the write that ends it (`games::update`).
//!
//! Why in that transaction: a crash then never leaves a finished rated game unrated, and a game
//! is rated exactly once: `games.rating_diff` is written with the new ratings, and a game whose
//! stored `rating_diff` is set is never rated again. Several server processes may share one
//! database, so the ratings are read inside the transaction, after the game's `UPDATE` took its
//! lock (SQLite: the database's write lock; PostgreSQL: the two accounts' rows, then their
//! rating rows, are read `FOR UPDATE`, each in account id order so that two games ending at once
//! cannot deadlock).

use game::Color;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::games::GameRow;
use super::{Store, StoreError, corrupt, now_ms};
use site_model::clock::Speed;
use site_model::ratings::{self, Rating, RatingChange, SideChange, Unrated};
use site_model::secrets::TokenHash;
use site_model::state::{GameKind, GameStatus};

/// One stored rating: an account's in one game and speed class.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    /// The game.
    pub variant: GameKind,
    /// The speed class.
    pub speed: Speed,
    /// Rating, deviation and volatility.
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
    /// Unix milliseconds of the last rated game.
    pub last_game_at: i64,
}

/// One point of a rating history: the rating after a rated game.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryRow {
    /// The game.
    pub variant: GameKind,
    /// The speed class.
    pub speed: Speed,
    /// The rated game's id.
    pub game_id: String,
    /// Rating after the game.
    pub rating: f64,
    /// Deviation after the game.
    pub rd: f64,
    /// Unix milliseconds of the game's end.
    pub at: i64,
}

/// One line of a leaderboard.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardRow {
    /// The account's name.
    pub username: String,
    /// Its rating.
    pub rating: Rating,
    /// Rated games played.
    pub games: i64,
}

fn speed_column(row: &AnyRow) -> Result<Speed, sqlx::Error> {
    let text: String = row.try_get("speed")?;
    Speed::parse(&text).ok_or_else(|| corrupt("speed", format!("unknown speed '{text}'")))
}

fn variant_column(row: &AnyRow) -> Result<GameKind, sqlx::Error> {
    let text: String = row.try_get("variant")?;
    GameKind::parse(&text).ok_or_else(|| corrupt("variant", format!("unknown game '{text}'")))
}

fn rating_of(row: &AnyRow) -> Result<Rating, sqlx::Error> {
    Ok(Rating {
        rating: row.try_get("rating")?,
        rd: row.try_get("rd")?,
        volatility: row.try_get("volatility")?,
    })
}

/// The account (id, name) whose seats hold `hash`.
async fn account_of(
    tx: &mut Transaction<'_, Any>,
    hash: Option<&str>,
) -> Result<Option<(String, String)>, sqlx::Error> {
    let Some(hash) = hash else { return Ok(None) };
    let row = sqlx::query("SELECT id, username FROM accounts WHERE player_hash = $1")
        .bind(hash)
        .fetch_optional(&mut **tx)
        .await?;
    row.map(|r| Ok((r.try_get("id")?, r.try_get("username")?)))
        .transpose()
}

/// The rating of `account` in `variant` and `speed`, locked for this transaction (a new
/// player's row is made first, with the start values).
/// Locks accounts `a` and `b` until the transaction ends, in id order (PostgreSQL: their rows
/// `FOR UPDATE`; SQLite's write transaction holds the database's lock already).
async fn lock_accounts(tx: &mut Transaction<'_, Any>, a: &str, b: &str) -> Result<(), sqlx::Error> {
    if tx.backend_name() == "SQLite" {
        return Ok(());
    }
    sqlx::query("SELECT id FROM accounts WHERE id IN ($1, $2) ORDER BY id FOR UPDATE")
        .bind(a)
        .bind(b)
        .fetch_all(&mut **tx)
        .await?;
    Ok(())
}

async fn locked_rating(
    tx: &mut Transaction<'_, Any>,
    account: &str,
    variant: GameKind,
    speed: Speed,
) -> Result<(Rating, i64), sqlx::Error> {
    let start = Rating::default();
    sqlx::query(
        "INSERT INTO ratings (account_id, variant, speed, rating, rd, volatility, games, \
         last_game_at) VALUES ($1, $2, $3, $4, $5, $6, 0, 0) ON CONFLICT DO NOTHING",
    )
    .bind(account)
    .bind(variant.as_str())
    .bind(speed.as_str())
    .bind(start.rating)
    .bind(start.rd)
    .bind(start.volatility)
    .execute(&mut **tx)
    .await?;
    // SQLite has no FOR UPDATE: its transaction already holds the database's write lock.
    let lock = if tx.backend_name() == "SQLite" {
        ""
    } else {
        " FOR UPDATE"
    };
    let row = sqlx::query(&format!(
        "SELECT rating, rd, volatility, games FROM ratings WHERE account_id = $1 AND \
         variant = $2 AND speed = $3{lock}"
    ))
    .bind(account)
    .bind(variant.as_str())
    .bind(speed.as_str())
    .fetch_one(&mut **tx)
    .await?;
    Ok((rating_of(&row)?, row.try_get("games")?))
}

async fn store_rating(
    tx: &mut Transaction<'_, Any>,
    account: &str,
    g: &GameRow,
    speed: Speed,
    after: Rating,
    games: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE ratings SET rating = $1, rd = $2, volatility = $3, games = $4, last_game_at = $5 \
         WHERE account_id = $6 AND variant = $7 AND speed = $8",
    )
    .bind(after.rating)
    .bind(after.rd)
    .bind(after.volatility)
    .bind(games)
    .bind(now)
    .bind(account)
    .bind(g.variant.as_str())
    .bind(speed.as_str())
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO rating_history (account_id, variant, speed, game_id, rating, rd, at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(account)
    .bind(g.variant.as_str())
    .bind(speed.as_str())
    .bind(&g.id)
    .bind(after.rating)
    .bind(after.rd)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Rates `g` if this write finished it as a rated game between two accounts and it was not
/// rated before: updates both ratings, appends both histories and stores the change on the
/// game (`rating_diff`, and `rating_avg`, the mean of the ratings before, for the statistics'
/// rating bands). Runs after `g`'s `UPDATE` in the same transaction. An aborted game, a game of
/// fewer than two moves, an unlimited game or a game whose seats are not two different
/// accounts is never rated.
pub(super) async fn rate_if_over(
    tx: &mut Transaction<'_, Any>,
    g: &GameRow,
) -> Result<(), StoreError> {
    if !g.rated || g.status != GameStatus::Finished || g.ratings.is_some() || g.ply < 2 {
        return Ok(());
    }
    if g.result.is_none() {
        return Ok(());
    }
    let Some(speed) = g.clock.and_then(|c| c.control().speed()) else {
        return Ok(());
    };
    let stored: Option<String> = sqlx::query("SELECT rating_diff FROM games WHERE id = $1")
        .bind(&g.id)
        .fetch_one(&mut **tx)
        .await?
        .try_get("rating_diff")?;
    if stored.is_some() {
        return Ok(());
    }
    let white = account_of(tx, g.white.token.as_ref().map(TokenHash::as_str)).await?;
    let black = account_of(tx, g.black.token.as_ref().map(TokenHash::as_str)).await?;
    let (Some((white_id, white_name)), Some((black_id, black_name))) = (white, black) else {
        return Ok(());
    };
    if white_id == black_id {
        return Ok(());
    }
    // Lock the two accounts first, in id order: the pair's daily cap and the sandbagging
    // counts span every rating pool, so two games of one pair ending at once in different
    // pools must wait for each other (issue 41's hostile round, findings 10 and 16).
    lock_accounts(tx, &white_id, &black_id).await?;
    // Then the ratings, in account id order too: two games ending at once lock them alike.
    let (w, b) = if white_id < black_id {
        let w = locked_rating(tx, &white_id, g.variant, speed).await?;
        (w, locked_rating(tx, &black_id, g.variant, speed).await?)
    } else {
        let b = locked_rating(tx, &black_id, g.variant, speed).await?;
        (locked_rating(tx, &white_id, g.variant, speed).await?, b)
    };
    let now = now_ms();
    // A marked account, or one held for sandbagging, plays its rated games unrated.
    if let Some(why) = super::sandbag::blocked_from_rating(tx, &white_id, &black_id, now).await? {
        return mark_unrated(tx, g, why).await;
    }
    // Boosting: the pair's rated games of the last 24 hours, counted after both ratings are
    // locked, so that two games of the pair ending at once count each other.
    let since = now - 24 * 3600 * 1000;
    let together: i64 = sqlx::query(
        "SELECT COUNT(*) AS n FROM rating_history a JOIN rating_history b \
         ON b.game_id = a.game_id AND b.account_id = $2 WHERE a.account_id = $1 AND a.at > $3",
    )
    .bind(&white_id)
    .bind(&black_id)
    .bind(since)
    .fetch_one(&mut **tx)
    .await?
    .try_get("n")?;
    if together >= ratings::PAIR_GAMES_PER_DAY {
        tracing::info!(game = %g.id, together, "not rated: the pair's daily limit");
        return mark_unrated(tx, g, Unrated::PairLimit).await;
    }
    // Sandbagging: a quick loss is recorded; the one that reaches a hold does not count.
    if super::sandbag::record(tx, g, &white_id, &black_id, now).await? {
        return mark_unrated(tx, g, Unrated::Sandbag).await;
    }
    let white_score = match g.winner {
        Some(Color::White) => 1.0,
        Some(Color::Black) => 0.0,
        None => 0.5,
    };
    let (w_after, b_after) = ratings::after_game(w.0, b.0, white_score);
    store_rating(tx, &white_id, g, speed, w_after, w.1 + 1, now).await?;
    store_rating(tx, &black_id, g, speed, b_after, b.1 + 1, now).await?;
    let change = RatingChange {
        white: SideChange::new(&white_name, w.0, w_after),
        black: SideChange::new(&black_name, b.0, b_after),
    };
    let text = serde_json::to_string(&change).map_err(|e| corrupt("rating_diff", e.to_string()))?;
    let avg = ((w.0.rating + b.0.rating) / 2.0).round() as i64;
    sqlx::query("UPDATE games SET rating_diff = $1, rating_avg = $2 WHERE id = $3")
        .bind(text)
        .bind(avg)
        .bind(&g.id)
        .execute(&mut **tx)
        .await?;
    tracing::info!(game = %g.id, white = change.white.diff, black = change.black.diff, "rated");
    Ok(())
}

/// Stores why game `g`, played as rated, does not count.
async fn mark_unrated(
    tx: &mut Transaction<'_, Any>,
    g: &GameRow,
    why: Unrated,
) -> Result<(), StoreError> {
    sqlx::query("UPDATE games SET unrated = $1 WHERE id = $2")
        .bind(why.as_str())
        .bind(&g.id)
        .execute(&mut **tx)
        .await?;
    tracing::info!(game = %g.id, why = why.as_str(), "not rated");
    Ok(())
}

impl Store {
    /// The rating change stored on game `id` (`None`: unrated, or not yet), and why a game
    /// played as rated did not count.
    pub async fn rating_change(
        &self,
        id: &str,
    ) -> Result<(Option<RatingChange>, Option<Unrated>), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query("SELECT rating_diff, unrated FROM games WHERE id = $1")
                        .bind(id)
                        .fetch_optional(conn.raw())
                        .await?;
                    let Some(r) = row else {
                        return Ok((None, None));
                    };
                    let text: Option<String> = r.try_get("rating_diff")?;
                    let unrated: Option<String> = r.try_get("unrated")?;
                    Ok((
                        text.and_then(|t| serde_json::from_str(&t).ok()),
                        unrated.as_deref().and_then(Unrated::parse),
                    ))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The shown rating (`PlayerRating`) of the account whose player token hashes to `player`,
    /// in `variant` and `speed`: the start rating, provisional, when it has no rated game there;
    /// `None` for a player without an account.
    pub async fn rating_of_player(
        &self,
        player: &str,
        variant: GameKind,
        speed: Speed,
    ) -> Result<Option<ratings::PlayerRating>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT a.id, r.rating, r.rd, r.volatility FROM accounts a LEFT JOIN \
                         ratings r ON r.account_id = a.id AND r.variant = $2 AND r.speed = $3 \
                         WHERE a.player_hash = $1",
                    )
                    .bind(player)
                    .bind(variant.as_str())
                    .bind(speed.as_str())
                    .fetch_optional(conn.raw())
                    .await?;
                    let Some(r) = row else {
                        return Ok(None);
                    };
                    let stored = match r.try_get::<Option<f64>, _>("rating")? {
                        None => None,
                        Some(_) => Some(rating_of(&r)?),
                    };
                    Ok(Some(ratings::PlayerRating::of(stored)))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Every stored rating of account `account_id` (a game and speed without a rated game has
    /// no row).
    pub async fn ratings_of(&self, account_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT variant, speed, rating, rd, volatility, games, last_game_at \
                         FROM ratings WHERE account_id = $1",
                    )
                    .bind(account_id)
                    .fetch_all(conn.raw())
                    .await?;
                    let mut out = Vec::with_capacity(rows.len());
                    for r in &rows {
                        out.push(RatingRow {
                            variant: variant_column(r)?,
                            speed: speed_column(r)?,
                            rating: rating_of(r)?,
                            games: r.try_get("games")?,
                            last_game_at: r.try_get("last_game_at")?,
                        });
                    }
                    Ok(out)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The rating history of account `account_id`, oldest first: its newest `limit` points.
    pub async fn rating_history(
        &self,
        account_id: &str,
        limit: i64,
    ) -> Result<Vec<HistoryRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT variant, speed, game_id, rating, rd, at FROM rating_history \
                         WHERE account_id = $1 ORDER BY at DESC, game_id LIMIT $2",
                    )
                    .bind(account_id)
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    let mut out = Vec::with_capacity(rows.len());
                    for r in rows.iter().rev() {
                        out.push(HistoryRow {
                            variant: variant_column(r)?,
                            speed: speed_column(r)?,
                            game_id: r.try_get("game_id")?,
                            rating: r.try_get("rating")?,
                            rd: r.try_get("rd")?,
                            at: r.try_get("at")?,
                        });
                    }
                    Ok(out)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The best `limit` ratings of `variant` and `speed` whose deviation is under `max_rd` and
    /// whose last rated game is at `since` (Unix ms) or later; highest first, ties by name.
    /// Marked (booster, cheater) and closed accounts are left off (issue 41).
    pub async fn leaderboard(
        &self,
        variant: GameKind,
        speed: Speed,
        max_rd: f64,
        since: i64,
        limit: i64,
    ) -> Result<Vec<BoardRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT a.username AS username, r.rating AS rating, r.rd AS rd, \
                         r.volatility AS volatility, r.games AS games FROM ratings r \
                         JOIN accounts a ON a.id = r.account_id WHERE r.variant = $1 AND \
                         r.speed = $2 AND r.rd < $3 AND r.last_game_at >= $4 \
                         AND a.mark IS NULL AND a.closed_at IS NULL ORDER BY r.rating DESC, a.username_key LIMIT $5",
                    )
                    .bind(variant.as_str())
                    .bind(speed.as_str())
                    .bind(max_rd)
                    .bind(since)
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    let mut out = Vec::with_capacity(rows.len());
                    for r in &rows {
                        out.push(BoardRow {
                            username: r.try_get("username")?,
                            rating: rating_of(r)?,
                            games: r.try_get("games")?,
                        });
                    }
                    Ok(out)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
