//! Watch (issue 41, `GET /api/tv`): the game in progress most worth watching. Among the
//! ongoing real-time games of two different human players (never a correspondence or an
//! unlimited game, which may wait for days): rated games first, then games of two
//! accounts, then the highest mean rating of the two players (their rating for the game's
//! variant and speed; 1500, Glicko-2's start, without one), then the newest. The ongoing games
//! are read through `games_status (status, variant)`: few rows, whatever the table's size.
//! A game of a marked account (booster or cheater) is never featured, as on lichess.

use site_model::state::GameKind;
use sqlx::Row;

use super::{Store, StoreError};

/// The rating a player without one counts as (Glicko-2's start).
const START_RATING: f64 = 1500.0;

/// The game to watch.
#[derive(Debug, Clone, PartialEq)]
pub struct TvGame {
    /// Its id.
    pub id: String,
    /// The game.
    pub variant: GameKind,
    /// White's account name (`None`: anonymous).
    pub white: Option<String>,
    /// Black's account name.
    pub black: Option<String>,
    /// White's rating for this game and speed (1500 without one).
    pub white_rating: f64,
    /// Black's rating.
    pub black_rating: f64,
    /// Played rated.
    pub rated: bool,
}

impl Store {
    /// The ongoing game most worth watching (see the module), of `variant` only when given.
    pub async fn tv_game(&self, variant: Option<GameKind>) -> Result<Option<TvGame>, StoreError> {
        self.run(|mut conn| {
            Box::pin(async move {
                let result = async {
                    let only = if variant.is_some() { " AND g.variant = $1" } else { "" };
                    let text = format!(
                        "SELECT g.id, g.variant, g.white_name, g.black_name, g.rated, \
                         COALESCE(rw.rating, {START_RATING:.1}) AS wr, \
                         COALESCE(rb.rating, {START_RATING:.1}) AS br \
                         FROM games g \
                         LEFT JOIN accounts aw ON g.white_name IS NOT NULL AND aw.player_hash = g.white_token \
                         LEFT JOIN ratings rw ON rw.account_id = aw.id AND rw.variant = g.variant AND rw.speed = g.speed \
                         LEFT JOIN accounts ab ON g.black_name IS NOT NULL AND ab.player_hash = g.black_token \
                         LEFT JOIN ratings rb ON rb.account_id = ab.id AND rb.variant = g.variant AND rb.speed = g.speed \
                         WHERE g.status = 'ongoing' AND g.speed = 'realtime' \
                         AND g.white_kind = 'human' AND g.black_kind = 'human' \
                         AND g.white_token <> g.black_token{only} \
                         AND aw.mark IS NULL AND ab.mark IS NULL \
                         ORDER BY g.rated DESC, \
                         CASE WHEN aw.id IS NOT NULL AND ab.id IS NOT NULL THEN 1 ELSE 0 END DESC, \
                         COALESCE(rw.rating, {START_RATING:.1}) + COALESCE(rb.rating, {START_RATING:.1}) DESC, \
                         g.created_at DESC, g.id LIMIT 1"
                    );
                    let mut q = sqlx::query(&text);
                    if let Some(v) = variant {
                        q = q.bind(v.as_str());
                    }
                    let Some(r) = q.fetch_optional(conn.raw()).await? else {
                        return Ok(None);
                    };
                    let rated: i64 = r.try_get("rated")?;
                    Ok(Some(TvGame {
                        id: r.try_get("id")?,
                        variant: super::games::parse_column(&r, "variant", GameKind::parse)?,
                        white: r.try_get("white_name")?,
                        black: r.try_get("black_name")?,
                        white_rating: r.try_get("wr")?,
                        black_rating: r.try_get("br")?,
                        rated: rated != 0,
                    }))
                }
                .await;
                (conn, result)
            })
        })
        .await
    }
}
