//! What a player's profile reads about games (issue 13, profiles): the games of an account's
//! seats (`player_hash`), its wins, losses and draws, the names behind seats, and the
//! statistics of rated games by rating band.
//!
//! A profile counts a game once both seats are taken and they are not the same player (a game
//! on one screen is no one's win or loss); aborted games are left out.

use std::collections::HashMap;

use sqlx::Row;

use super::StatsRow;
use super::games::{GameRow, from_row, select_columns};
use super::{Store, StoreError, corrupt};
use site_model::secrets::TokenHash;
use site_model::state::GameKind;

/// The games of a profile's player: both seats taken, by two different players.
const PLAYED: &str = "(white_token = $1 OR black_token = $1) AND white_kind <> 'open' AND \
     black_kind <> 'open' AND COALESCE(white_token, '') <> COALESCE(black_token, '')";

/// A player's finished games: `total = wins + losses + draws`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Finished games.
    pub total: i64,
    /// Won.
    pub wins: i64,
    /// Lost.
    pub losses: i64,
    /// Drawn.
    pub draws: i64,
}

/// One page of a player's games, newest change first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerGames {
    /// The games of the page.
    pub rows: Vec<GameRow>,
    /// Whether a next page has games.
    pub more: bool,
}

/// An account as its profile needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileAccount {
    /// Account id.
    pub id: String,
    /// The name as registered.
    pub username: String,
    /// The SHA-256 of its player token: what its seats hold.
    pub player_hash: Option<TokenHash>,
    /// The bio its player wrote (issue 41), if any.
    pub bio: Option<String>,
    /// Its ISO 3166-1 alpha-2 country code, if set.
    pub country: Option<String>,
    /// Closed by a moderator.
    pub closed: bool,
    /// A moderator's mute lasts until then (Unix ms), if one was given.
    pub muted_until: Option<i64>,
    /// A BOT account (issue 44).
    pub bot: bool,
}

impl ProfileAccount {
    /// The bio as others may read it at `now` (Unix ms): none while the account is closed or
    /// muted (issue 41, third hostile round: a bio is a public text a mute or close must
    /// silence like chat).
    pub fn public_bio(&self, now: i64) -> Option<&str> {
        let silenced = self.closed || self.muted_until.is_some_and(|u| u > now);
        self.bio.as_deref().filter(|_| !silenced)
    }
}

impl Store {
    /// The account named `username` (without regard to case), with its seats' hash.
    pub async fn profile_account(
        &self,
        username: &str,
    ) -> Result<Option<ProfileAccount>, StoreError> {
        let key = username.to_lowercase();
        self.run(|mut conn| {
            let key = key.clone();
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT id, username, player_hash, bio, country, closed_at, muted_until, \
                         bot_since FROM accounts \
                         WHERE username_key = $1",
                    )
                    .bind(key)
                    .fetch_optional(conn.raw())
                    .await?;
                    Ok(match row {
                        Some(r) => Some(ProfileAccount {
                            id: r.try_get("id")?,
                            username: r.try_get("username")?,
                            player_hash: r
                                .try_get::<Option<String>, _>("player_hash")?
                                .map(TokenHash::from_stored),
                            bio: r.try_get("bio")?,
                            country: r.try_get("country")?,
                            closed: r.try_get::<Option<i64>, _>("closed_at")?.is_some(),
                            muted_until: r.try_get("muted_until")?,
                            bot: r.try_get::<Option<i64>, _>("bot_since")?.is_some(),
                        }),
                        None => None,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The finished games of the player whose seats hold `hash`, counted. Uploads (games
    /// played offline in the browser, issue 42) are left out: no server saw them played, so
    /// they are listed, marked, but are no one's win or loss.
    pub async fn player_record(&self, hash: &TokenHash) -> Result<PlayerRecord, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(&format!(
                        "SELECT COUNT(*) AS total, \
                         COALESCE(SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END), 0) AS draws, \
                         COALESCE(SUM(CASE WHEN (winner = 'white' AND white_token = $1) OR \
                         (winner = 'black' AND black_token = $1) THEN 1 ELSE 0 END), 0) AS wins \
                         FROM games WHERE status = 'finished' AND upload_key IS NULL AND \
                         {PLAYED}"
                    ))
                    .bind(hash.as_str())
                    .fetch_one(conn.raw())
                    .await?;
                    let total: i64 = row.try_get("total")?;
                    let draws: i64 = row.try_get("draws")?;
                    let wins: i64 = row.try_get("wins")?;
                    Ok(PlayerRecord {
                        total,
                        wins,
                        draws,
                        losses: total - wins - draws,
                    })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Page `page` (from 0) of `per_page` games of the player whose seats hold `hash`, of
    /// `variant` only when given; finished and ongoing, most recently changed first.
    pub async fn player_games(
        &self,
        hash: &TokenHash,
        variant: Option<GameKind>,
        page: i64,
        per_page: i64,
    ) -> Result<PlayerGames, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let filter = if variant.is_some() {
                        " AND variant = $4"
                    } else {
                        ""
                    };
                    let text = format!(
                        "SELECT {} FROM games WHERE status IN ('finished', 'ongoing') AND \
                         {PLAYED}{filter} ORDER BY updated_at DESC, id LIMIT $2 OFFSET $3",
                        select_columns()
                    );
                    // One more than a page: whether a next page exists.
                    let mut q = sqlx::query(&text)
                        .bind(hash.as_str())
                        .bind(per_page + 1)
                        .bind(page.saturating_mul(per_page));
                    if let Some(v) = variant {
                        q = q.bind(v.as_str());
                    }
                    let rows = q.fetch_all(conn.raw()).await?;
                    let mut rows: Vec<GameRow> =
                        rows.iter().map(from_row).collect::<Result<_, _>>()?;
                    let more = rows.len() as i64 > per_page;
                    rows.truncate(per_page.max(0) as usize);
                    Ok(PlayerGames { rows, more })
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The account names of the seat hashes in `hashes` that are accounts' (hash -> name).
    pub async fn usernames_of(
        &self,
        hashes: &[String],
    ) -> Result<HashMap<String, String>, StoreError> {
        if hashes.is_empty() {
            return Ok(HashMap::new());
        }
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let marks: Vec<String> = (1..=hashes.len()).map(|i| format!("${i}")).collect();
                    let text = format!(
                        "SELECT player_hash, username FROM accounts WHERE player_hash IN ({})",
                        marks.join(", ")
                    );
                    let mut q = sqlx::query(&text);
                    for h in hashes {
                        q = q.bind(h);
                    }
                    let mut out = HashMap::new();
                    for r in q.fetch_all(conn.raw()).await? {
                        out.insert(r.try_get("player_hash")?, r.try_get("username")?);
                    }
                    Ok(out)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Rated games (those the site rated: two accounts, a result) per variant and winner,
    /// whose players' mean rating before the game is in `min..max` (either end open when
    /// `None`).
    pub async fn rated_stats(
        &self,
        min: Option<i64>,
        max: Option<i64>,
    ) -> Result<Vec<StatsRow>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT variant, winner, COUNT(*) AS n FROM games WHERE \
                         status = 'finished' AND rating_diff IS NOT NULL AND rating_avg >= $1 \
                         AND rating_avg < $2 GROUP BY variant, winner",
                    )
                    .bind(min.unwrap_or(i64::MIN))
                    .bind(max.unwrap_or(i64::MAX))
                    .fetch_all(conn.raw())
                    .await?;
                    let mut out = Vec::with_capacity(rows.len());
                    for r in &rows {
                        let variant: String = r.try_get("variant")?;
                        let winner: Option<String> = r.try_get("winner")?;
                        out.push(StatsRow {
                            variant: GameKind::parse(&variant).ok_or_else(|| {
                                corrupt(
                                    "variant",
                                    format!("finished games' counts: unknown variant '{variant}'"),
                                )
                            })?,
                            winner: match winner {
                                None => None,
                                Some(w) => Some(game::Color::parse(&w).ok_or_else(|| {
                                    corrupt("winner", format!("unknown colour '{w}'"))
                                })?),
                            },
                            count: r.try_get("n")?,
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
