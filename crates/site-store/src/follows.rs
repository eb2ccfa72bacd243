//! Follows between accounts (issue 41, table `follows`): who follows whom, by account id.
//! Public, as on lichess; a block does not stop one (it would tell the blocked account).

use sqlx::Row;

use super::{Store, StoreError};

/// One account in a list of follows or blocks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SocialRow {
    /// The account's id.
    pub id: String,
    /// Its name as registered.
    pub username: String,
    /// The SHA-256 of its player token (its seats), if set.
    pub player_hash: Option<String>,
    /// When the follow or block was made, Unix ms.
    pub since: i64,
    /// Closed by a moderator.
    pub closed: bool,
}

/// Most accounts one account may follow (lichess: 400).
pub const MAX_FOLLOWING: i64 = 400;

/// The condition on a follow `f` for the public lists and counts: not a follow of a player who
/// blocks the follower, unless the viewer (`$2`, an account id or '') is that follower.
const PUBLIC_FOLLOW: &str = "(f.follower_id = $2 OR NOT EXISTS (SELECT 1 FROM blocks b \
     WHERE b.blocker_id = f.followed_id AND b.blocked_id = f.follower_id))";

/// What [`Store::follow`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowOutcome {
    /// Stored (or already there).
    Following,
    /// Not stored: the follower already follows [`MAX_FOLLOWING`] accounts.
    TooMany,
}

impl Store {
    /// `follower` follows `followed` (account ids) unless `follower` already follows the most
    /// allowed; idempotent. A blocked account may follow the blocker as anyone may (issue 41:
    /// a follow that did not stick told them of the block; a follow reaches nothing).
    pub async fn follow(
        &self,
        follower: &str,
        followed: &str,
        now: i64,
    ) -> Result<FollowOutcome, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let n: i64 =
                        sqlx::query("SELECT COUNT(*) AS n FROM follows WHERE follower_id = $1")
                            .bind(follower)
                            .fetch_one(conn.raw())
                            .await?
                            .try_get("n")?;
                    if n >= MAX_FOLLOWING {
                        let already = sqlx::query(
                            "SELECT 1 AS x FROM follows WHERE follower_id = $1 AND followed_id = $2",
                        )
                        .bind(follower)
                        .bind(followed)
                        .fetch_optional(conn.raw())
                        .await?
                        .is_some();
                        return Ok(if already {
                            FollowOutcome::Following
                        } else {
                            FollowOutcome::TooMany
                        });
                    }
                    sqlx::query(
                        "INSERT INTO follows (follower_id, followed_id, created_at) \
                         VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                    )
                    .bind(follower)
                    .bind(followed)
                    .bind(now)
                    .execute(conn.raw())
                    .await?;
                    Ok(FollowOutcome::Following)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// `follower` no longer follows `followed`; whether it did.
    pub async fn unfollow(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    Ok(sqlx::query(
                        "DELETE FROM follows WHERE follower_id = $1 AND followed_id = $2",
                    )
                    .bind(follower)
                    .bind(followed)
                    .execute(conn.raw())
                    .await?
                    .rows_affected()
                        > 0)
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// The accounts `account` follows (`followers`: false) or that follow it (true), by name,
    /// closed ones included (the owner's own view, which shows them offline).
    pub async fn follow_list(
        &self,
        account: &str,
        followers: bool,
    ) -> Result<Vec<SocialRow>, StoreError> {
        let (mine, theirs) = if followers {
            ("followed_id", "follower_id")
        } else {
            ("follower_id", "followed_id")
        };
        let sql = format!(
            "SELECT a.id, a.username, a.player_hash, a.closed_at, f.created_at FROM follows f \
             JOIN accounts a ON a.id = f.{theirs} WHERE f.{mine} = $1 ORDER BY a.username_key"
        );
        self.social_list(sql, account, None).await
    }

    /// The public list of [`Self::follow_list`], as `viewer` (an account id) may see it: no
    /// closed account, and no follower whom `account` blocks, so a username is no message
    /// left on somebody's profile (issue 41, hostile 13). The blocked follower still finds
    /// itself in the list it views, which would otherwise tell it of the block.
    pub async fn public_follow_list(
        &self,
        account: &str,
        followers: bool,
        viewer: Option<&str>,
    ) -> Result<Vec<SocialRow>, StoreError> {
        let (mine, theirs) = if followers {
            ("followed_id", "follower_id")
        } else {
            ("follower_id", "followed_id")
        };
        let sql = format!(
            "SELECT a.id, a.username, a.player_hash, a.closed_at, f.created_at FROM follows f \
             JOIN accounts a ON a.id = f.{theirs} WHERE f.{mine} = $1 AND a.closed_at IS NULL \
             AND {visible} ORDER BY a.username_key",
            visible = PUBLIC_FOLLOW
        );
        self.social_list(sql, account, Some(viewer.unwrap_or("")))
            .await
    }

    /// Whether `follower` follows `followed`.
    pub async fn follows(&self, follower: &str, followed: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    Ok(sqlx::query(
                        "SELECT 1 AS x FROM follows WHERE follower_id = $1 AND followed_id = $2",
                    )
                    .bind(follower)
                    .bind(followed)
                    .fetch_optional(conn.raw())
                    .await?
                    .is_some())
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// How many accounts `account` follows, and how many follow it, counted as
    /// [`Self::public_follow_list`] lists them for `viewer`.
    pub async fn follow_counts(
        &self,
        account: &str,
        viewer: Option<&str>,
    ) -> Result<(i64, i64), StoreError> {
        let viewer = viewer.unwrap_or("").to_owned();
        self.run(|mut conn| {
            let viewer = viewer.clone();
            Box::pin(async move {
                let result = async {
                    let mut counts = [0i64; 2];
                    for (i, (mine, theirs)) in [("follower_id", "followed_id"), ("followed_id", "follower_id")]
                        .into_iter()
                        .enumerate()
                    {
                        let sql = format!(
                            "SELECT COUNT(*) AS n FROM follows f JOIN accounts a ON a.id = f.{theirs} \
                             WHERE f.{mine} = $1 AND a.closed_at IS NULL AND {PUBLIC_FOLLOW}"
                        );
                        counts[i] = sqlx::query(&sql)
                            .bind(account)
                            .bind(&viewer)
                            .fetch_one(conn.raw())
                            .await?
                            .try_get("n")?;
                    }
                    Ok((counts[0], counts[1]))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Whether the player whose seats hold `player_hash` has a real-time game (a clock of
    /// `speed` `realtime`) in play: they are at a board now. A correspondence, untimed or
    /// engine-paced game of days says nothing of it (hostile finding 2 of round 4), nor a
    /// friend game whose seat nobody took, which waits without end (finding 3 of round 5).
    pub async fn playing_realtime(&self, player_hash: &str) -> Result<bool, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let row = sqlx::query(
                        "SELECT 1 AS one FROM games WHERE status = 'ongoing' AND speed = 'realtime' \
                         AND white_kind <> 'open' AND black_kind <> 'open' \
                         AND (white_token = $1 OR black_token = $1) LIMIT 1",
                    )
                    .bind(player_hash)
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

    /// The ongoing games of the player whose seats hold `player_hash`, newest first.
    pub async fn games_in_play(&self, player_hash: &str) -> Result<Vec<String>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let rows = sqlx::query(
                        "SELECT id FROM games WHERE status = 'ongoing' AND \
                         (white_token = $1 OR black_token = $1) ORDER BY created_at DESC LIMIT 10",
                    )
                    .bind(player_hash)
                    .fetch_all(conn.raw())
                    .await?;
                    rows.iter().map(|r| Ok(r.try_get("id")?)).collect()
                }
                .await;
                (conn, result)
            })
        })
        .await
    }

    /// Rows of a list query binding `account` as `$1` and, when given, `viewer` as `$2`.
    pub(super) async fn social_list(
        &self,
        sql: String,
        account: &str,
        viewer: Option<&str>,
    ) -> Result<Vec<SocialRow>, StoreError> {
        let viewer = viewer.map(str::to_owned);
        self.run(|mut conn| {
            let sql = sql.clone();
            let viewer = viewer.clone();
            Box::pin(async move {
                let result = async {
                    let mut query = sqlx::query(&sql).bind(account);
                    if let Some(v) = viewer {
                        query = query.bind(v);
                    }
                    let rows = query.fetch_all(conn.raw()).await?;
                    rows.iter()
                        .map(|r| {
                            Ok(SocialRow {
                                id: r.try_get("id")?,
                                username: r.try_get("username")?,
                                player_hash: r.try_get("player_hash")?,
                                since: r.try_get("created_at")?,
                                closed: r.try_get::<Option<i64>, _>("closed_at")?.is_some(),
                            })
                        })
                        .collect()
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
