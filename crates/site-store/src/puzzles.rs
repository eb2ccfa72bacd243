//! The puzzle tables (migration 21, issue 39): `puzzles` and their `puzzle_themes`, the
//! accounts' `puzzle_ratings`, and `puzzle_attempts`, an account's first attempt at each
//! puzzle.
//!
//! Only an account's first attempt at a puzzle is stored, and only it may be rated: the
//! attempt's primary key `(account_id, puzzle_id)` decides, inside the transaction that
//! changes both ratings, so that two requests or two processes at once rate a puzzle once.
//! The ratings are read inside that transaction (SQLite: `BEGIN IMMEDIATE` holds the write
//! lock; PostgreSQL: `FOR UPDATE`, the account's row before the puzzle's).

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{Store, StoreError, corrupt};
use site_model::ratings::{self, Rating};
use site_model::state::GameKind;

/// One stored puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleRow {
    /// Its id (the puzzle file's).
    pub id: String,
    /// The game.
    pub variant: GameKind,
    /// Its place among the game's puzzles, from 1, as imported.
    pub ordinal: i64,
    /// The start position; the solver is the side to move.
    pub fen: String,
    /// Both sides' moves, canonical text, the solver's first.
    pub moves: Vec<String>,
    /// The solver's moves.
    pub length: i64,
    /// Theme names (`puzzles::Theme::name`).
    pub themes: Vec<String>,
    /// Its Glicko-2 rating.
    pub rating: Rating,
    /// First attempts by accounts.
    pub plays: i64,
    /// Where it was mined: a site game id, `selfplay:<seed>:<n>`, a file's game, or empty.
    pub game: String,
    /// Plies of that game before the position.
    pub ply: i64,
    /// `yes`: the game's player found the first move; `no`: missed it; empty: unknown.
    pub seen: String,
    /// A hint (the seeds' examples: the seed's words), or empty.
    pub hint: String,
    /// Why the puzzle is out of service (an operator's words, or the start-up check's
    /// finding); empty while it is served. A retired puzzle stays stored, so that the
    /// shipped file does not bring it back (`puzzle_upkeep.rs`).
    pub retired: String,
}

/// A puzzle to import: everything but its rating and plays.
#[derive(Debug, Clone, PartialEq)]
pub struct NewPuzzle {
    /// As [`PuzzleRow`].
    pub id: String,
    /// As [`PuzzleRow`].
    pub variant: GameKind,
    /// As [`PuzzleRow`].
    pub fen: String,
    /// As [`PuzzleRow`].
    pub moves: Vec<String>,
    /// As [`PuzzleRow`].
    pub length: i64,
    /// As [`PuzzleRow`].
    pub themes: Vec<String>,
    /// Its starting rating.
    pub rating: f64,
    /// As [`PuzzleRow`].
    pub game: String,
    /// As [`PuzzleRow`].
    pub ply: i64,
    /// As [`PuzzleRow`].
    pub seen: String,
    /// As [`PuzzleRow`].
    pub hint: String,
}

/// An account's puzzle rating in one game, with its counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PuzzleRatingRow {
    /// The game.
    pub variant: GameKind,
    /// The rating.
    pub rating: Rating,
    /// Puzzles attempted (first attempts).
    pub attempts: i64,
    /// Of those, solved.
    pub solved: i64,
}

/// One stored attempt, for the dashboard.
#[derive(Debug, Clone, PartialEq)]
pub struct AttemptRow {
    /// The puzzle.
    pub puzzle_id: String,
    /// Its game.
    pub variant: GameKind,
    /// Whether it was solved.
    pub solved: bool,
    /// Whether it was rated.
    pub rated: bool,
    /// The account's puzzle rating before it, when rated.
    pub rating_before: Option<f64>,
    /// The account's puzzle rating after it, when rated.
    pub rating_after: Option<f64>,
    /// The puzzle's rating now.
    pub puzzle_rating: f64,
    /// Its themes.
    pub themes: Vec<String>,
    /// Unix ms.
    pub at: i64,
}

/// An account's record on one theme.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThemeRecord {
    /// The game.
    pub variant: GameKind,
    /// The theme's name.
    pub theme: String,
    /// First attempts at puzzles of this theme.
    pub attempts: i64,
    /// Of those, solved.
    pub solved: i64,
}

/// What storing an attempt did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum AttemptStored {
    /// The account's first attempt at the puzzle; `Some((before, after))` when it was rated.
    First(Option<(Rating, Rating)>),
    /// An attempt was stored before: nothing changed.
    Again,
}

pub(crate) const COLUMNS: &str = "p.id, p.variant, p.ordinal, p.fen, p.moves, p.length, p.themes, \
                       p.rating, p.rd, p.volatility, p.plays, p.game, p.ply, p.seen, p.hint, \
                       p.retired";

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

pub(crate) fn puzzle_of(r: &AnyRow) -> Result<PuzzleRow, sqlx::Error> {
    let variant: String = r.try_get("variant")?;
    Ok(PuzzleRow {
        id: r.try_get("id")?,
        variant: variant
            .parse()
            .map_err(|_| corrupt("variant", format!("unknown game '{variant}'")))?,
        ordinal: r.try_get("ordinal")?,
        fen: r.try_get("fen")?,
        moves: words(&r.try_get::<String, _>("moves")?),
        length: r.try_get("length")?,
        themes: words(&r.try_get::<String, _>("themes")?),
        rating: Rating {
            rating: r.try_get("rating")?,
            rd: r.try_get("rd")?,
            volatility: r.try_get("volatility")?,
        },
        plays: r.try_get("plays")?,
        game: r.try_get("game")?,
        ply: r.try_get("ply")?,
        seen: r.try_get("seen")?,
        hint: r.try_get("hint")?,
        retired: r.try_get("retired")?,
    })
}

/// `FOR UPDATE` on PostgreSQL; SQLite's write transaction holds the lock already.
fn lock(tx: &Transaction<'_, Any>) -> &'static str {
    if tx.backend_name() == "SQLite" {
        ""
    } else {
        " FOR UPDATE"
    }
}

impl Store {
    /// Adds the puzzles not stored yet (by id), each after the game's last: several
    /// processes may import the same file at once, and a second import adds nothing.
    /// Returns how many were added.
    pub async fn import_puzzles(&self, puzzles: &[NewPuzzle], now: i64) -> Result<u64, StoreError> {
        let sqlite = self.sqlite;
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    if !sqlite {
                        // One importer at a time: the ordinals are read, then written.
                        sqlx::query("SELECT pg_advisory_xact_lock(hashtext('puzzle-import'))")
                            .execute(&mut *tx)
                            .await?;
                    }
                    let known: Vec<String> = sqlx::query("SELECT id FROM puzzles")
                        .fetch_all(&mut *tx)
                        .await?
                        .iter()
                        .map(|r| r.try_get("id"))
                        .collect::<Result<_, _>>()?;
                    let known: std::collections::HashSet<String> = known.into_iter().collect();
                    let mut added = 0;
                    for p in puzzles {
                        if known.contains(&p.id) {
                            continue;
                        }
                        let last: Option<i64> =
                            sqlx::query("SELECT MAX(ordinal) FROM puzzles WHERE variant = $1")
                                .bind(p.variant.as_str())
                                .fetch_one(&mut *tx)
                                .await?
                                .try_get(0)?;
                        let start = Rating::default();
                        sqlx::query(
                            "INSERT INTO puzzles (id, variant, ordinal, fen, moves, length, \
                             themes, rating, rd, volatility, plays, game, ply, seen, hint, \
                             created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, \
                             $11, $12, $13, $14, $15)",
                        )
                        .bind(&p.id)
                        .bind(p.variant.as_str())
                        .bind(last.unwrap_or(0) + 1)
                        .bind(&p.fen)
                        .bind(p.moves.join(" "))
                        .bind(p.length)
                        .bind(p.themes.join(" "))
                        .bind(p.rating)
                        .bind(start.rd)
                        .bind(start.volatility)
                        .bind(&p.game)
                        .bind(p.ply)
                        .bind(&p.seen)
                        .bind(&p.hint)
                        .bind(now)
                        .execute(&mut *tx)
                        .await?;
                        for theme in &p.themes {
                            sqlx::query(
                                "INSERT INTO puzzle_themes (variant, theme, puzzle_id) \
                                 VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                            )
                            .bind(p.variant.as_str())
                            .bind(theme)
                            .bind(&p.id)
                            .execute(&mut *tx)
                            .await?;
                        }
                        added += 1;
                    }
                    tx.commit().await?;
                    Ok(added)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The puzzle `id`, if stored.
    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let id = id.to_string();
        self.run(|mut conn| {
            let id = id.clone();
            Box::pin(async move {
                let result = async {
                    let row =
                        sqlx::query(&format!("SELECT {COLUMNS} FROM puzzles p WHERE p.id = $1"))
                            .bind(&id)
                            .fetch_optional(conn.raw())
                            .await?;
                    Ok(row.as_ref().map(puzzle_of).transpose()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The game's puzzle at `ordinal` (from 1), if there is one.
    pub async fn puzzle_at(
        &self,
        variant: GameKind,
        ordinal: i64,
    ) -> Result<Option<PuzzleRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(&format!(
                        "SELECT {COLUMNS} FROM puzzles p WHERE p.variant = $1 AND p.ordinal = $2"
                    ))
                    .bind(variant.as_str())
                    .bind(ordinal)
                    .fetch_optional(conn.raw())
                    .await?;
                    Ok(row.as_ref().map(puzzle_of).transpose()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// How many puzzles the game has, and per theme (by name), the most first.
    pub async fn puzzle_counts(
        &self,
        variant: GameKind,
    ) -> Result<(i64, Vec<(String, i64)>), StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let total: i64 = sqlx::query(
                        "SELECT COUNT(*) FROM puzzles WHERE variant = $1 AND retired = ''",
                    )
                        .bind(variant.as_str())
                        .fetch_one(conn.raw())
                        .await?
                        .try_get(0)?;
                    let rows = sqlx::query(
                        "SELECT t.theme AS theme, COUNT(*) AS n FROM puzzle_themes t JOIN puzzles p \
                         ON p.id = t.puzzle_id WHERE t.variant = $1 AND p.retired = '' \
                         GROUP BY t.theme ORDER BY n DESC, t.theme",
                    )
                    .bind(variant.as_str())
                    .fetch_all(conn.raw())
                    .await?;
                    let themes = rows
                        .iter()
                        .map(|r| Ok((r.try_get("theme")?, r.try_get("n")?)))
                        .collect::<Result<_, sqlx::Error>>()?;
                    Ok((total, themes))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Up to `2 * each` puzzles of the game (of `theme`, when given) nearest `near` in
    /// rating: `each` at or above it, `each` below, both by the rating index, and none that
    /// `account` attempted.
    pub async fn puzzles_near(
        &self,
        variant: GameKind,
        theme: Option<&str>,
        near: f64,
        account: Option<&str>,
        each: i64,
    ) -> Result<Vec<PuzzleRow>, StoreError> {
        let theme = theme.map(str::to_string);
        let account = account.map(str::to_string);
        self.run(|mut conn| {
            let theme = theme.clone();
            let account = account.clone();
            Box::pin(async move {
                let result = async {
                    // The theme's placeholder exists only when a theme is asked for:
                    // PostgreSQL refuses a bind its statement does not use.
                    let join = if theme.is_some() {
                        "JOIN puzzle_themes t ON t.puzzle_id = p.id AND t.variant = p.variant \
                         AND t.theme = $5"
                    } else {
                        ""
                    };
                    let mut found = Vec::new();
                    for (cmp, order) in [(">=", "ASC"), ("<", "DESC")] {
                        let sql = format!(
                            "SELECT {COLUMNS} FROM puzzles p {join} WHERE p.variant = $1 \
                             AND p.retired = '' AND p.rating {cmp} $2 AND NOT EXISTS (SELECT 1 FROM \
                             puzzle_attempts a WHERE a.account_id = $3 AND a.puzzle_id = p.id) \
                             ORDER BY p.rating {order}, p.ordinal LIMIT $4"
                        );
                        let mut q = sqlx::query(&sql)
                            .bind(variant.as_str())
                            .bind(near)
                            .bind(account.as_deref().unwrap_or(""))
                            .bind(each);
                        if let Some(theme) = &theme {
                            q = q.bind(theme.as_str());
                        }
                        for r in &q.fetch_all(conn.raw()).await? {
                            found.push(puzzle_of(r)?);
                        }
                    }
                    Ok(found)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The game's puzzle ids and ordinals from the easiest up: by rating, then length, then
    /// ordinal (streak mode draws from this order). Two small columns a puzzle.
    pub async fn puzzles_by_difficulty(
        &self,
        variant: GameKind,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id, ordinal FROM puzzles WHERE variant = $1 AND retired = '' \
                         ORDER BY rating, length, ordinal",
                    )
                    .bind(variant.as_str())
                    .fetch_all(conn.raw())
                    .await?;
                    Ok(rows
                        .iter()
                        .map(|r| Ok((r.try_get("id")?, r.try_get("ordinal")?)))
                        .collect::<Result<_, sqlx::Error>>()?)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// `account`'s puzzle rating in the game, with its counts; `None` before its first
    /// attempt.
    pub async fn puzzle_rating(
        &self,
        account: &str,
        variant: GameKind,
    ) -> Result<Option<PuzzleRatingRow>, StoreError> {
        let account = account.to_string();
        self.run(|mut conn| {
            let account = account.clone();
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT r.rating, r.rd, r.volatility, \
                         (SELECT COUNT(*) FROM puzzle_attempts a WHERE a.account_id = $1 \
                          AND a.variant = $2) AS attempts, \
                         (SELECT COUNT(*) FROM puzzle_attempts a WHERE a.account_id = $1 \
                          AND a.variant = $2 AND a.solved = 1) AS solved \
                         FROM puzzle_ratings r WHERE r.account_id = $1 AND r.variant = $2",
                    )
                    .bind(&account)
                    .bind(variant.as_str())
                    .fetch_optional(conn.raw())
                    .await?;
                    Ok(match row {
                        None => None,
                        Some(r) => Some(PuzzleRatingRow {
                            variant,
                            rating: Rating {
                                rating: r.try_get("rating")?,
                                rd: r.try_get("rd")?,
                                volatility: r.try_get("volatility")?,
                            },
                            attempts: r.try_get("attempts")?,
                            solved: r.try_get("solved")?,
                        }),
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Whether `account` attempted puzzle `id`.
    pub async fn puzzle_attempted(&self, account: &str, id: &str) -> Result<bool, StoreError> {
        let (account, id) = (account.to_string(), id.to_string());
        self.run(|mut conn| {
            let (account, id) = (account.clone(), id.clone());
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT 1 FROM puzzle_attempts WHERE account_id = $1 AND puzzle_id = $2",
                    )
                    .bind(&account)
                    .bind(&id)
                    .fetch_optional(conn.raw())
                    .await?;
                    Ok(row.is_some())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Stores `account`'s attempt at `puzzle` if it is the first, and then, when `rated`,
    /// rates the account against the puzzle (a win for the account when `solved`) and the
    /// puzzle against it, all in one transaction (see the module doc).
    pub async fn record_puzzle_attempt(
        &self,
        account: &str,
        puzzle: &PuzzleRow,
        solved: bool,
        rated: bool,
        now: i64,
    ) -> Result<AttemptStored, StoreError> {
        let account = account.to_string();
        let (id, variant) = (puzzle.id.clone(), puzzle.variant);
        self.run(|mut conn| {
            let (account, id) = (account.clone(), id.clone());
            Box::pin(async move {
                let result = async {
                    let mut tx = conn.begin().await?;
                    let first = sqlx::query(
                        "INSERT INTO puzzle_attempts (account_id, puzzle_id, variant, solved, \
                         rated, at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                    )
                    .bind(&account)
                    .bind(&id)
                    .bind(variant.as_str())
                    .bind(i64::from(solved))
                    .bind(i64::from(rated))
                    .bind(now)
                    .execute(&mut *tx)
                    .await?
                    .rows_affected()
                        == 1;
                    if !first {
                        tx.commit().await?;
                        return Ok(AttemptStored::Again);
                    }
                    sqlx::query("UPDATE puzzles SET plays = plays + 1 WHERE id = $1")
                        .bind(&id)
                        .execute(&mut *tx)
                        .await?;
                    // Every account with an attempt has a rating row, rated or not.
                    let start = Rating::default();
                    sqlx::query(
                        "INSERT INTO puzzle_ratings (account_id, variant, rating, rd, \
                         volatility, updated_at) VALUES ($1, $2, $3, $4, $5, $6) \
                         ON CONFLICT DO NOTHING",
                    )
                    .bind(&account)
                    .bind(variant.as_str())
                    .bind(start.rating)
                    .bind(start.rd)
                    .bind(start.volatility)
                    .bind(now)
                    .execute(&mut *tx)
                    .await?;
                    let change = if rated {
                        Some(rate(&mut tx, &account, &id, variant, solved, now).await?)
                    } else {
                        None
                    };
                    tx.commit().await?;
                    Ok(AttemptStored::First(change))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// `account`'s puzzle ratings, its newest `limit` attempts, and its record per theme,
    /// the themes missed most (by share) first.
    pub async fn puzzle_history(
        &self,
        account: &str,
        limit: i64,
    ) -> Result<(Vec<AttemptRow>, Vec<ThemeRecord>), StoreError> {
        let account = account.to_string();
        self.run(|mut conn| {
            let account = account.clone();
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT a.puzzle_id, a.variant, a.solved, a.rated, a.rating_before, a.rating_after, \
                         a.at, p.rating, p.themes FROM puzzle_attempts a JOIN puzzles p ON \
                         p.id = a.puzzle_id WHERE a.account_id = $1 ORDER BY a.at DESC, \
                         a.puzzle_id LIMIT $2",
                    )
                    .bind(&account)
                    .bind(limit)
                    .fetch_all(conn.raw())
                    .await?;
                    let mut recent = Vec::new();
                    for r in &rows {
                        let variant: String = r.try_get("variant")?;
                        recent.push(AttemptRow {
                            puzzle_id: r.try_get("puzzle_id")?,
                            variant: variant.parse().map_err(|_| {
                                corrupt("variant", format!("unknown game '{variant}'"))
                            })?,
                            solved: r.try_get::<i64, _>("solved")? == 1,
                            rated: r.try_get::<i64, _>("rated")? == 1,
                            rating_before: r.try_get("rating_before")?,
                            rating_after: r.try_get("rating_after")?,
                            puzzle_rating: r.try_get("rating")?,
                            themes: words(&r.try_get::<String, _>("themes")?),
                            at: r.try_get("at")?,
                        });
                    }
                    let rows = sqlx::query(
                        "SELECT t.variant, t.theme, COUNT(*) AS attempts, \
                         CAST(SUM(a.solved) AS BIGINT) AS solved FROM puzzle_attempts a JOIN puzzle_themes t \
                         ON t.puzzle_id = a.puzzle_id WHERE a.account_id = $1 \
                         GROUP BY t.variant, t.theme",
                    )
                    .bind(&account)
                    .fetch_all(conn.raw())
                    .await?;
                    let mut themes = Vec::new();
                    for r in &rows {
                        let variant: String = r.try_get("variant")?;
                        themes.push(ThemeRecord {
                            variant: variant.parse().map_err(|_| {
                                corrupt("variant", format!("unknown game '{variant}'"))
                            })?,
                            theme: r.try_get("theme")?,
                            attempts: r.try_get("attempts")?,
                            solved: r.try_get::<Option<i64>, _>("solved")?.unwrap_or(0),
                        });
                    }
                    // Missed share, most first; then more attempts; then by name.
                    themes.sort_by(|a, b| {
                        let miss = |t: &ThemeRecord| {
                            (t.attempts - t.solved) * 1_000_000 / t.attempts.max(1)
                        };
                        miss(b)
                            .cmp(&miss(a))
                            .then(b.attempts.cmp(&a.attempts))
                            .then(a.theme.cmp(&b.theme))
                    });
                    Ok((recent, themes))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}

/// Rates `account` against puzzle `id` inside the attempt's transaction; returns the
/// account's rating before and after.
async fn rate(
    tx: &mut Transaction<'_, Any>,
    account: &str,
    id: &str,
    variant: GameKind,
    solved: bool,
    now: i64,
) -> Result<(Rating, Rating), StoreError> {
    let lock = lock(tx);
    let r = sqlx::query(&format!(
        "SELECT rating, rd, volatility FROM puzzle_ratings WHERE account_id = $1 AND \
         variant = $2{lock}"
    ))
    .bind(account)
    .bind(variant.as_str())
    .fetch_one(&mut **tx)
    .await?;
    let player = Rating {
        rating: r.try_get("rating")?,
        rd: r.try_get("rd")?,
        volatility: r.try_get("volatility")?,
    };
    let r = sqlx::query(&format!(
        "SELECT rating, rd, volatility FROM puzzles WHERE id = $1{lock}"
    ))
    .bind(id)
    .fetch_one(&mut **tx)
    .await?;
    let puzzle = Rating {
        rating: r.try_get("rating")?,
        rd: r.try_get("rd")?,
        volatility: r.try_get("volatility")?,
    };
    let (after, puzzle_after) = ratings::after_game(player, puzzle, if solved { 1.0 } else { 0.0 });
    sqlx::query(
        "UPDATE puzzle_ratings SET rating = $1, rd = $2, volatility = $3, updated_at = $4 \
         WHERE account_id = $5 AND variant = $6",
    )
    .bind(after.rating)
    .bind(after.rd)
    .bind(after.volatility)
    .bind(now)
    .bind(account)
    .bind(variant.as_str())
    .execute(&mut **tx)
    .await?;
    sqlx::query("UPDATE puzzles SET rating = $1, rd = $2, volatility = $3 WHERE id = $4")
        .bind(puzzle_after.rating)
        .bind(puzzle_after.rd)
        .bind(puzzle_after.volatility)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    sqlx::query(
        "UPDATE puzzle_attempts SET rating_before = $1, rating_after = $2 WHERE account_id = $3 \
         AND puzzle_id = $4",
    )
    .bind(player.rating)
    .bind(after.rating)
    .bind(account)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok((player, after))
}
