//! Seeks: make one, list them, withdraw one, accept one, and quick pairing (accept a matching
//! seek of someone else, or make one).

use std::net::IpAddr;
use std::sync::Arc;

use serde::Serialize;

use super::{ANONYMOUS_SEEK_MS, Lobby, MAX_SEEKS, expiry, lobby_game, parse_terms, speed_name};
use crate::notifications;
use crate::play::{random_token, valid_id};
use crate::view::GameView;
use site_model::clock::TimeControl;
use site_model::error::{ErrorCode, SiteError};
use site_model::notifications::NotificationKind;
use site_model::secrets::{PlayerToken, TokenHash};
use site_model::state::{GameKind, SeekColor, SeekStatus};
use site_store::{AcceptOutcome, GameRow, SeekRow, Terms};

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
    /// `row` as the player whose token hashes to `me` sees it.
    pub fn of(row: &SeekRow, me: &TokenHash) -> SeekView {
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
        let terms = parse_terms(req.variant, req.time_control, req.rated, req.color)?;
        let row = self.make_seek(token, terms, address).await?;
        Ok(SeekView::of(&row, &row.owner))
    }

    /// Makes `token`'s seek of `terms` (the seek's times are the game clocks', so that a test
    /// can move past an anonymous seek's day).
    async fn make_seek(
        &self,
        token: &PlayerToken,
        terms: Terms,
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
        };
        if !self.play.store.insert_seek(&row, MAX_SEEKS).await? {
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
        // The seeks of players blocked either way are not shown (issue 41).
        let blocked = self.play.store.blocked_hashes(me.as_str()).await?;
        Ok(rows
            .iter()
            .filter(|r| !blocked.iter().any(|b| b == r.owner.as_str()))
            .map(|r| SeekView::of(r, &me))
            .collect())
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
            return Ok(QuickAnswer {
                game: None,
                seek: Some(SeekView::of(mine, &me)),
            });
        }
        for other in &matching {
            if let Some(view) = self.try_accept(token, other, None).await? {
                return Ok(QuickAnswer {
                    game: Some(view),
                    seek: None,
                });
            }
        }
        let mine = self.make_seek(token, terms, address).await?;
        let older = |s: &&SeekRow| (s.created_at, &s.id) < (mine.created_at, &mine.id);
        for other in self
            .play
            .store
            .matching_seeks(self.play.time().now_ms(), &terms)
            .await?
            .iter()
        {
            if other.owner == me || !older(&other) || !pairable(other) {
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
        Ok(QuickAnswer {
            game: None,
            seek: Some(SeekView::of(&mine, &me)),
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
            AcceptOutcome::Lost => Ok(None),
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
