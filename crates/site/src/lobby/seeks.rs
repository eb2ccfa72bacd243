//! Seeks: make one, list them, withdraw one, accept one, and quick pairing (accept a matching
//! seek of someone else, or make one).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;

use serde::Serialize;

use super::{ANONYMOUS_SEEK_MS, Lobby, MAX_SEEKS, expiry, lobby_game, parse_terms, speed_name};
use crate::notifications;
use crate::play::{random_token, valid_id};
use crate::view::GameView;
use site_model::clock::{Speed, TimeControl};
use site_model::error::{ErrorCode, SiteError};
use site_model::notifications::NotificationKind;
use site_model::ratings::PlayerRating;
use site_model::secrets::{PlayerToken, TokenHash};
use site_model::state::{GameKind, SeekColor, SeekStatus};
use site_store::{AcceptOutcome, GameRow, SeekRefusal, SeekRow, Terms};

/// A seek to make (`POST /api/seeks`; site-http reads the body into it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewSeek {
    /// The game.
    pub variant: GameKind,
    /// The game's clock (`clock::TimeControl`).
    pub time_control: TimeControl,
    /// Rated (needs an account; never unlimited).
    pub rated: bool,
    /// The seeker's side.
    pub color: SeekColor,
    /// The ratings (both ends included) of the accounts that may see and accept it (issue 41):
    /// needs an account and a clock; `None`: anyone.
    pub rating_range: Option<RatingRange>,
}

/// A seek's rating range (`"rating_range": [1400, 1800]`), checked by site-http: both ends
/// within [`RATING_BOUNDS`], the first not above the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingRange {
    /// The lowest rating that may accept.
    pub min: i64,
    /// The highest.
    pub max: i64,
}

/// The ratings a range's ends may take.
pub const RATING_BOUNDS: (i64, i64) = (0, 4000);

impl RatingRange {
    /// `[min, max]` as sent; 400 naming `rating_range` for ends out of [`RATING_BOUNDS`] or
    /// in the wrong order.
    pub fn new(min: i64, max: i64) -> Result<RatingRange, SiteError> {
        let (lo, hi) = RATING_BOUNDS;
        if !(lo..=hi).contains(&min) || !(lo..=hi).contains(&max) {
            return Err(SiteError::bad_request(format!(
                "rating_range: [{min}, {max}] is out of bounds: both ends are ratings from {lo} \
                 to {hi}"
            )));
        }
        if min > max {
            return Err(SiteError::bad_request(format!(
                "rating_range: [{min}, {max}]: the lowest rating comes first"
            )));
        }
        Ok(RatingRange { min, max })
    }
}

/// Quick pairing's terms (`POST /api/seeks/quick`): as [`NewSeek`], any side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QuickSeek {
    /// The game.
    pub variant: GameKind,
    /// The game's clock.
    pub time_control: TimeControl,
    /// Rated (needs an account).
    pub rated: bool,
}

/// A seek as `GET /api/seeks` and the lobby stream show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SeekView {
    /// Its id.
    pub id: String,
    /// `antarctos` or `iceage`.
    pub variant: GameKind,
    /// The control as asked.
    pub time_control: TimeControl,
    /// The control in short: `3+2`, `2 days`, `unlimited`.
    pub label: String,
    /// `realtime`, `correspondence` or `unlimited`.
    pub speed: &'static str,
    /// Rated.
    pub rated: bool,
    /// The seeker's side: `white`, `black` or `random`.
    pub color: SeekColor,
    /// The seeker's account name; null for an anonymous player.
    pub username: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    /// Whether it is the asking player's own.
    pub mine: bool,
    /// The seeker's rating in the seek's game and speed (issue 41), `{"rating": 1500,
    /// "provisional": true}`; null for an anonymous player or an unlimited seek.
    pub rating: Option<PlayerRating>,
    /// Only accounts rated within `[min, max]` see and may accept it; null: anyone.
    pub rating_range: Option<[i64; 2]>,
}

/// `POST /api/seeks/quick`'s answer: the game when a seek matched, else the seek made (or
/// the asking player's identical one, already open).
#[derive(Debug, Clone, Serialize)]
pub struct QuickAnswer {
    /// The game started, as the asking player sees it.
    pub game: Option<GameView>,
    /// The seek waiting for an opponent.
    pub seek: Option<SeekView>,
}

impl SeekView {
    /// `row` as the player whose token hashes to `me` sees it, its seeker rated `rating`.
    pub fn of(row: &SeekRow, me: &TokenHash, rating: Option<PlayerRating>) -> SeekView {
        SeekView {
            id: row.id.clone(),
            variant: row.terms.variant,
            time_control: row.terms.control,
            label: row.terms.control.label(),
            speed: speed_name(row.terms.control),
            rated: row.terms.rated,
            color: row.terms.color,
            username: row.username.clone(),
            created_at: row.created_at,
            mine: row.owner == *me,
            rating,
            rating_range: row.rating_range.map(|(a, b)| [a, b]),
        }
    }
}

fn no_seek(id: &str) -> SiteError {
    SiteError::new(
        ErrorCode::NotFound,
        format!(
            "no open seek has the id '{}' (withdrawn, or its player left)",
            game::excerpt(id)
        ),
    )
}

fn taken() -> SiteError {
    SiteError::new(
        ErrorCode::Conflict,
        "someone else accepted this seek first: pick another, or make your own",
    )
}

impl Lobby {
    /// `POST /api/seeks` from `address` (the client's, keyed; `None`: no cap per address):
    /// 201 with the seek. 400 for bad terms, 401 `not_logged_in` for a rated seek without an
    /// account, 429 `too_many_seeks` past [`MAX_SEEKS`] of the player, or of its address for
    /// an anonymous player.
    pub async fn create_seek(
        &self,
        token: &PlayerToken,
        req: NewSeek,
        address: Option<IpAddr>,
    ) -> Result<SeekView, SiteError> {
        self.refuse_bot(token, "make seeks").await?;
        let terms = parse_terms(req.variant, req.time_control, req.rated, req.color)?;
        if req.rating_range.is_some() {
            if terms.control.speed().is_none() {
                return Err(SiteError::bad_request(
                    "rating_range: an unlimited game has no rating to compare: choose a \
                     real-time or correspondence clock, or leave the range out",
                ));
            }
            if self.play.account_name(token).await?.is_none() {
                return Err(SiteError::new(
                    ErrorCode::NotLoggedIn,
                    "a seek with a rating range is for accounts: log in or register first",
                ));
            }
        }
        let range = req.rating_range.map(|r| (r.min, r.max));
        let row = self.make_seek(token, terms, range, address).await?;
        let rating = self.seeker_rating(&row).await?;
        Ok(SeekView::of(&row, &row.owner, rating))
    }

    /// The rating of `seek`'s seeker in its game and speed (`None`: anonymous, or unlimited).
    async fn seeker_rating(&self, seek: &SeekRow) -> Result<Option<PlayerRating>, SiteError> {
        self.rating_for(&seek.owner, seek).await
    }

    /// The rating of the player whose token hashes to `player` in `seek`'s game and speed.
    async fn rating_for(
        &self,
        player: &TokenHash,
        seek: &SeekRow,
    ) -> Result<Option<PlayerRating>, SiteError> {
        let Some(speed) = seek.terms.control.speed() else {
            return Ok(None);
        };
        Ok(self
            .play
            .store
            .rating_of_player(player.as_str(), seek.terms.variant, speed)
            .await?)
    }

    /// Whether the player whose token hashes to `me` may see and accept `seek`: its own, one
    /// without a range, or an account rated within the range (an anonymous player never is).
    async fn in_range(&self, me: &TokenHash, seek: &SeekRow) -> Result<bool, SiteError> {
        let Some((min, max)) = seek.rating_range else {
            return Ok(true);
        };
        if seek.owner == *me {
            return Ok(true);
        }
        Ok(self
            .rating_for(me, seek)
            .await?
            .is_some_and(|r| (min..=max).contains(&r.rating)))
    }

    /// Makes `token`'s seek of `terms` (the seek's times are the game clocks', so that a test
    /// can move past an anonymous seek's day).
    async fn make_seek(
        &self,
        token: &PlayerToken,
        terms: Terms,
        rating_range: Option<(i64, i64)>,
        address: Option<IpAddr>,
    ) -> Result<SeekRow, SiteError> {
        if terms.rated {
            self.play.check_rated(token, terms.control).await?;
        }
        let owner = token.hash();
        let username = self
            .play
            .store
            .account_by_player_hash(&token.hash())
            .await?
            .map(|a| a.username);
        let now = self.play.time().now_ms();
        let anonymous = username.is_none();
        // An anonymous correspondence seek waits a day at most (an account's, until answered).
        let expires_at = match expiry(terms.control, now, self.presence_ms()) {
            None if anonymous => Some(now + ANONYMOUS_SEEK_MS),
            other => other,
        };
        let row = SeekRow {
            id: random_token(12),
            owner,
            username,
            terms,
            status: SeekStatus::Open,
            game_id: None,
            created_at: now,
            updated_at: now,
            expires_at,
            address: address
                .filter(|_| anonymous)
                .map(site_model::secrets::address_digest),
            rating_range,
        };
        let refusal = self.play.store.insert_seek(&row, MAX_SEEKS).await?;
        if refusal == Err(SeekRefusal::OwnerClosed) {
            return Err(account_closed());
        }
        if refusal.is_err() {
            let whose = if anonymous {
                "you (or other anonymous players at your address) already have"
            } else {
                "you already have"
            };
            return Err(SiteError::new(
                ErrorCode::TooManySeeks,
                format!(
                    "{whose} {MAX_SEEKS} open seeks (the most allowed): withdraw one first{}",
                    if anonymous { ", or log in" } else { "" }
                ),
            ));
        }
        tracing::info!(seek = %row.id, variant = %terms.variant, "seek made");
        self.touch();
        Ok(row)
    }

    /// `GET /api/seeks`: the open seeks as `token`'s player sees them: rated ones first, then
    /// the other seeks of accounts, then anonymous ones, each oldest first.
    pub async fn list_seeks(&self, token: &PlayerToken) -> Result<Vec<SeekView>, SiteError> {
        let me = token.hash();
        let rows = self
            .play
            .store
            .open_seeks(self.play.time().now_ms(), 200)
            .await?;
        // The seeks of players blocked either way are not shown (issue 41), nor those whose
        // rating range leaves this player out.
        let blocked = self.play.store.blocked_hashes(me.as_str()).await?;
        let mut ratings: HashMap<(String, GameKind, Option<Speed>), Option<PlayerRating>> =
            HashMap::new();
        let mut out = Vec::with_capacity(rows.len());
        for r in rows
            .iter()
            .filter(|r| !blocked.iter().any(|b| b == r.owner.as_str()))
        {
            let key = |who: &TokenHash| {
                (
                    who.as_str().to_string(),
                    r.terms.variant,
                    r.terms.control.speed(),
                )
            };
            if let Some((min, max)) = r.rating_range
                && r.owner != me
            {
                let mine = match ratings.get(&key(&me)) {
                    Some(x) => *x,
                    None => {
                        let x = self.rating_for(&me, r).await?;
                        ratings.insert(key(&me), x);
                        x
                    }
                };
                if !mine.is_some_and(|m| (min..=max).contains(&m.rating)) {
                    continue;
                }
            }
            let theirs = match ratings.get(&key(&r.owner)) {
                Some(x) => *x,
                None if r.username.is_none() => None,
                None => {
                    let x = self.seeker_rating(r).await?;
                    ratings.insert(key(&r.owner), x);
                    x
                }
            };
            out.push(SeekView::of(r, &me, theirs));
        }
        Ok(out)
    }

    /// `DELETE /api/seeks/{id}`: withdraws `token`'s own open seek; 404 otherwise.
    pub async fn cancel_seek(&self, token: &PlayerToken, id: &str) -> Result<(), SiteError> {
        if !valid_id(id) || !self.play.store.delete_seek(id, &token.hash()).await? {
            return Err(SiteError::new(
                ErrorCode::NotFound,
                format!(
                    "you have no open seek with the id '{}' (accepted, expired or someone \
                     else's)",
                    game::excerpt(id)
                ),
            ));
        }
        self.touch();
        Ok(())
    }

    /// `POST /api/seeks/{id}/accept`: the game, for both players at once. 404 for a seek
    /// that is not open, 409 `own_seek` for one's own, 409 `conflict` when another player
    /// accepted it first, 401 `not_logged_in` for a rated seek without an account.
    pub async fn accept_seek(
        self: &Arc<Self>,
        token: &PlayerToken,
        id: &str,
    ) -> Result<GameView, SiteError> {
        if !valid_id(id) {
            return Err(no_seek(id));
        }
        self.refuse_bot(token, "accept seeks").await?;
        let now = self.play.time().now_ms();
        let seek = self.play.store.seek(id).await?.ok_or_else(|| no_seek(id))?;
        let me = token.hash();
        if seek.owner == me {
            return Err(SiteError::new(
                ErrorCode::OwnSeek,
                "this is your own seek: wait for someone to accept it, or withdraw it",
            ));
        }
        if seek.status != SeekStatus::Open {
            return Err(taken());
        }
        if seek.expires_at.is_some_and(|e| e <= now)
            || !self.in_range(&me, &seek).await?
            || self
                .play
                .store
                .blocked_either_way(me.as_str(), seek.owner.as_str())
                .await?
        {
            return Err(no_seek(id));
        }
        if seek.terms.rated {
            self.play.check_rated(token, seek.terms.control).await?;
        }
        let mut row = self
            .play
            .with_names(lobby_game(
                &seek.terms,
                &seek.owner,
                &me,
                self.play.time().now_ms(),
            )?)
            .await?;
        self.play.started_during_outage(row.clock.as_mut()).await?;
        row.outbox = vec![notifications::events::offer_accepted(
            NotificationKind::SeekAccepted,
            id,
            &seek.owner,
            &row,
        )];
        match self
            .play
            .store
            .accept_seek(id, &token.hash(), &row, None)
            .await?
        {
            AcceptOutcome::Won => self.start_lobby_game(row, token, "seek").await,
            AcceptOutcome::AcceptorClosed => Err(account_closed()),
            // A block stored meanwhile: as before it, the seek is not there for this player.
            AcceptOutcome::Blocked => Err(no_seek(id)),
            _ => match self.play.store.seek(id).await? {
                Some(s) if s.status != SeekStatus::Open => Err(taken()),
                _ => Err(no_seek(id)),
            },
        }
    }

    /// `POST /api/seeks/quick`: accepts the oldest matching seek of someone else (same game,
    /// control and rated flag), else makes one with a random side. When two players click at
    /// once and both make a seek, the newer seeker accepts the older seek and withdraws its
    /// own in the same transaction, so they meet and never make two games.
    pub async fn quick_seek(
        self: &Arc<Self>,
        token: &PlayerToken,
        req: QuickSeek,
        address: Option<IpAddr>,
    ) -> Result<QuickAnswer, SiteError> {
        self.refuse_bot(token, "use quick pairing").await?;
        let terms = parse_terms(req.variant, req.time_control, req.rated, SeekColor::Random)?;
        if terms.rated {
            self.play.check_rated(token, terms.control).await?;
        }
        let me = token.hash();
        // Never paired with a player blocked either way (issue 41).
        let blocked = self.play.store.blocked_hashes(me.as_str()).await?;
        let pairable = |s: &SeekRow| !blocked.iter().any(|b| b == s.owner.as_str());
        let matching: Vec<SeekRow> = self
            .play
            .store
            .matching_seeks(self.play.time().now_ms(), &terms)
            .await?
            .into_iter()
            .filter(|s| s.owner == me || pairable(s))
            .collect();
        if let Some(mine) = matching.iter().find(|s| s.owner == me) {
            // The same click again: the seek already waits.
            let rating = self.seeker_rating(mine).await?;
            return Ok(QuickAnswer {
                game: None,
                seek: Some(SeekView::of(mine, &me, rating)),
            });
        }
        for other in &matching {
            if !self.in_range(&me, other).await? {
                continue;
            }
            if let Some(view) = self.try_accept(token, other, None).await? {
                return Ok(QuickAnswer {
                    game: Some(view),
                    seek: None,
                });
            }
        }
        let mine = self.make_seek(token, terms, None, address).await?;
        let older = |s: &&SeekRow| (s.created_at, &s.id) < (mine.created_at, &mine.id);
        for other in self
            .play
            .store
            .matching_seeks(self.play.time().now_ms(), &terms)
            .await?
            .iter()
        {
            if other.owner == me
                || !older(&other)
                || !pairable(other)
                || !self.in_range(&me, other).await?
            {
                continue;
            }
            match self.try_accept(token, other, Some(&mine.id)).await {
                Ok(Some(view)) => {
                    return Ok(QuickAnswer {
                        game: Some(view),
                        seek: None,
                    });
                }
                Ok(None) => {}
                Err(e) if e.code == ErrorCode::Conflict => {
                    // Our own seek was accepted meanwhile: that is the game.
                    if let Some(game) = self
                        .play
                        .store
                        .seek(&mine.id)
                        .await?
                        .and_then(|s| s.game_id)
                    {
                        return Ok(QuickAnswer {
                            game: Some(self.play.get(&game, token).await?),
                            seek: None,
                        });
                    }
                }
                Err(e) => return Err(e),
            }
        }
        let rating = self.seeker_rating(&mine).await?;
        Ok(QuickAnswer {
            game: None,
            seek: Some(SeekView::of(&mine, &me, rating)),
        })
    }

    /// Accepts `seek` for `token` (withdrawing `withdraw`, the player's own, at once): the
    /// game, `None` when someone was first; 409 `conflict` when `withdraw` was taken first.
    async fn try_accept(
        self: &Arc<Self>,
        token: &PlayerToken,
        seek: &SeekRow,
        withdraw: Option<&str>,
    ) -> Result<Option<GameView>, SiteError> {
        let mut row = self
            .play
            .with_names(lobby_game(
                &seek.terms,
                &seek.owner,
                &token.hash(),
                self.play.time().now_ms(),
            )?)
            .await?;
        self.play.started_during_outage(row.clock.as_mut()).await?;
        row.outbox = vec![notifications::events::offer_accepted(
            NotificationKind::SeekAccepted,
            &seek.id,
            &seek.owner,
            &row,
        )];
        match self
            .play
            .store
            .accept_seek(&seek.id, &token.hash(), &row, withdraw)
            .await?
        {
            AcceptOutcome::Won => Ok(Some(self.start_lobby_game(row, token, "seek").await?)),
            // A block stored meanwhile: the next seek, as if this one were taken.
            AcceptOutcome::Lost | AcceptOutcome::Blocked => Ok(None),
            AcceptOutcome::AcceptorClosed => Err(account_closed()),
            AcceptOutcome::OwnTaken => Err(taken()),
        }
    }

    /// Puts a lobby game just stored in memory, wakes the streams and the clock's referee,
    /// and returns `token`'s view.
    pub(crate) async fn start_lobby_game(
        self: &Arc<Self>,
        mut row: GameRow,
        token: &PlayerToken,
        via: &str,
    ) -> Result<GameView, SiteError> {
        tracing::info!(game = %row.id, variant = %row.variant, rated = row.rated, via, "lobby game");
        // The offer's owner was told in the game's transaction.
        self.play
            .notifications
            .made(&std::mem::take(&mut row.outbox));
        self.touch();
        self.play.clock_changed.notify_one();
        self.play.open_new(row, token, "lobby game").await
    }
}

/// The answer to a request made under a log-in whose account a moderator closed meanwhile.
pub(crate) fn account_closed() -> SiteError {
    SiteError::new(
        ErrorCode::NotLoggedIn,
        "your account was closed: your log-in has ended",
    )
}
