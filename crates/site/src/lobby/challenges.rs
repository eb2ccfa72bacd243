//! Direct challenges: an account offers a game to another named account, which accepts or
//! declines; the challenger may cancel it (or dismiss a declined one).

use std::sync::Arc;

use serde::Serialize;

use super::{
    KEEP_ANSWERED_MS, Lobby, MAX_CHALLENGES, MAX_PER_PAIR, PAIR_WINDOW_MS, expiry, lobby_game,
    parse_terms, speed_name,
};
use crate::accounts::valid_username;
use crate::notifications;
use crate::play::{random_token, valid_id};
use crate::view::GameView;
use site_model::clock::TimeControl;
use site_model::error::{ErrorCode, SiteError};
use site_model::notifications::NotificationKind;
use site_model::secrets::{PlayerToken, TokenHash};
use site_model::state::{ChallengeStatus, GameKind, SeekColor};
use site_store::{ChallengeEnd, ChallengeLimits, ChallengeRefusal, ChallengeRow, now_ms};

/// A challenge to make (`POST /api/challenges`; site-http reads the body into it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewChallenge {
    /// The challenged account's name, as sent (checked here).
    pub username: String,
    /// The game.
    pub variant: GameKind,
    /// The game's clock.
    pub time_control: TimeControl,
    /// Rated (never unlimited).
    pub rated: bool,
    /// The challenger's side.
    pub color: SeekColor,
}

/// A challenge as `GET /api/challenges` and the lobby stream show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChallengeView {
    /// Its id.
    pub id: String,
    /// `incoming` (to the asking player) or `outgoing` (from it).
    pub direction: &'static str,
    /// The challenger's account name.
    pub challenger: String,
    /// The challenged account's name.
    pub challenged: String,
    /// `antarctos` or `iceage`.
    pub variant: GameKind,
    /// The control.
    pub time_control: TimeControl,
    /// The control in short: `3+2`, `2 days`, `unlimited`.
    pub label: String,
    /// `realtime`, `correspondence` or `unlimited`.
    pub speed: &'static str,
    /// Rated.
    pub rated: bool,
    /// The challenger's side: `white`, `black` or `random`.
    pub color: SeekColor,
    /// `open`, `accepted` or `declined`.
    pub status: ChallengeStatus,
    /// The game, once accepted.
    pub game: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    /// The other player (the challenger of an incoming one, the challenged of an outgoing
    /// one) is a BOT account (issue 44: marked everywhere); absent otherwise.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// `GET /api/challenges`: the challenges to and from the asking player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChallengeLists {
    /// Open challenges to the player.
    pub incoming: Vec<ChallengeView>,
    /// The player's open challenges, and those answered in the last ten minutes.
    pub outgoing: Vec<ChallengeView>,
}

impl ChallengeView {
    fn of(row: &ChallengeRow, me: &TokenHash) -> ChallengeView {
        ChallengeView {
            id: row.id.clone(),
            direction: if row.challenger == *me {
                "outgoing"
            } else {
                "incoming"
            },
            challenger: row.challenger_name.clone(),
            challenged: row.challenged_name.clone(),
            variant: row.terms.variant,
            time_control: row.terms.control,
            label: row.terms.control.label(),
            speed: speed_name(row.terms.control),
            rated: row.terms.rated,
            color: row.terms.color,
            status: row.status,
            game: row.game_id.clone(),
            created_at: row.created_at,
            bot: false,
        }
    }

    /// The other player's name.
    fn other(&self) -> &str {
        if self.direction == "incoming" {
            &self.challenger
        } else {
            &self.challenged
        }
    }
}

/// The answer when `name` blocks the challenger or takes no challenges from them: the same
/// words, so the blocked player learns nothing more and the blocker never shows (issue 41).
fn not_accepted(name: &str) -> SiteError {
    SiteError::new(
        ErrorCode::NotAccepted,
        format!("{name} does not accept challenges from you"),
    )
}

fn no_challenge(id: &str) -> SiteError {
    SiteError::new(
        ErrorCode::NotFound,
        format!(
            "no open challenge of yours has the id '{}' (answered, cancelled or expired)",
            game::excerpt(id)
        ),
    )
}

impl Lobby {
    /// `POST /api/challenges`: 201 with the challenge. 401 `not_logged_in` without an
    /// account, 404 for an unknown name, 400 for oneself or bad terms, 429
    /// `too_many_challenges` past [`MAX_CHALLENGES`] open.
    pub async fn create_challenge(
        &self,
        token: &PlayerToken,
        req: NewChallenge,
    ) -> Result<ChallengeView, SiteError> {
        let me = token.hash();
        let Some(account) = self
            .play
            .store
            .account_by_player_hash(&token.hash())
            .await?
        else {
            return Err(SiteError::new(
                ErrorCode::NotLoggedIn,
                "challenges are sent between accounts: log in or register first",
            ));
        };
        if !valid_username(&req.username) {
            return Err(SiteError::bad_request(
                "username: a username is 3 to 20 letters (A-Z, a-z), digits, '_' or '-'",
            ));
        }
        let terms = parse_terms(req.variant, req.time_control, req.rated, req.color)?;
        let Some((_, name, challenged)) = self.play.store.account_player(&req.username).await?
        else {
            return Err(SiteError::new(
                ErrorCode::NotFound,
                format!("no player is named '{}'", req.username),
            ));
        };
        if challenged == me {
            return Err(SiteError::bad_request(
                "username: you cannot challenge yourself",
            ));
        }
        if !self
            .play
            .store
            .takes_challenge(challenged.as_str(), me.as_str())
            .await?
        {
            return Err(not_accepted(&name));
        }
        if terms.rated {
            // A BOT account plays rated games against people only when they challenge it
            // (issue 44); rated games between bots are allowed.
            let store = &self.play.store;
            if store.is_bot_player(&me).await? && !store.is_bot_player(&challenged).await? {
                return Err(SiteError::new(
                    ErrorCode::BotAccount,
                    format!(
                        "a BOT account cannot challenge a person ({name}) to a rated game: challenge them unrated, or let them challenge you"
                    ),
                ));
            }
            self.play.check_rated(token, terms.control).await?;
        }
        let now = now_ms();
        let row = ChallengeRow {
            // A game's length: the game it leads to takes its id (lichess's clients match
            // a `gameStart` to their challenge by id; bot client finding 3).
            id: random_token(8),
            challenger: me.clone(),
            challenger_name: account.username,
            challenged,
            challenged_name: name,
            terms,
            status: ChallengeStatus::Open,
            game_id: None,
            created_at: now,
            updated_at: now,
            expires_at: expiry(terms.control, now, self.presence_ms()),
        };
        let note = notifications::events::challenge_received(&row);
        let limits = ChallengeLimits {
            open: MAX_CHALLENGES,
            per_pair: MAX_PER_PAIR,
            since: now - PAIR_WINDOW_MS,
        };
        match self
            .play
            .store
            .insert_challenge(&row, limits, &note)
            .await?
        {
            Ok(()) => {}
            // Each challenge notifies (and pushes to) the challenged player: a loop of
            // challenges and cancels must not bury their notifications.
            Err(ChallengeRefusal::TooManyToPlayer) => {
                return Err(SiteError::new(
                    ErrorCode::TooManyChallenges,
                    format!(
                        "you challenged {} {MAX_PER_PAIR} times in the last {} minutes \
                         (answered challenges count too): try again in a few minutes",
                        row.challenged_name,
                        PAIR_WINDOW_MS / 60_000
                    ),
                ));
            }
            // Blocks and closed accounts are read inside the insert's transaction, so a
            // block or a close at the same moment misses nothing (round 6, findings 4, 5).
            Err(ChallengeRefusal::ChallengerBlocks) => {
                // Said to the blocker without blaming the other (issue 41).
                return Err(SiteError::new(
                    ErrorCode::Conflict,
                    format!(
                        "you have blocked {}: unblock them to challenge them",
                        row.challenged_name
                    ),
                ));
            }
            Err(ChallengeRefusal::Blocked) => return Err(not_accepted(&row.challenged_name)),
            Err(ChallengeRefusal::ChallengerClosed) => return Err(super::seeks::account_closed()),
            Err(ChallengeRefusal::ChallengedClosed) => {
                return Err(SiteError::new(
                    ErrorCode::NotFound,
                    format!("no player is named '{}'", req.username),
                ));
            }
            Err(ChallengeRefusal::TooManyOpen) => {
                return Err(SiteError::new(
                    ErrorCode::TooManyChallenges,
                    format!(
                        "you already have {MAX_CHALLENGES} open challenges (the most allowed): \
                         wait for answers or cancel one"
                    ),
                ));
            }
        }
        tracing::info!(challenge = %row.id, "challenge made");
        self.play.notifications.made(&[note]);
        self.touch();
        Ok(ChallengeView::of(&row, &me))
    }

    /// `GET /api/challenges`.
    pub async fn list_challenges(&self, token: &PlayerToken) -> Result<ChallengeLists, SiteError> {
        let me = token.hash();
        let now = now_ms();
        let rows = self
            .play
            .store
            .challenges_of(&me, now, now - KEEP_ANSWERED_MS)
            .await?;
        // A challenge made before a block is hidden from the blocker from then on; the
        // blocked player's own challenge stays in their list, waiting as for a player who
        // does not answer (issue 41: they are not told).
        let blocked = self.play.store.blocked_hashes(me.as_str()).await?;
        let mine = self.play.store.hashes_blocked_by(me.as_str()).await?;
        let (outgoing, incoming): (Vec<_>, Vec<_>) = rows
            .iter()
            .filter(|r| {
                let (other, outgoing) = if r.challenger == me {
                    (&r.challenged, true)
                } else {
                    (&r.challenger, false)
                };
                let i_block = mine.iter().any(|b| b == other.as_str());
                let either = blocked.iter().any(|b| b == other.as_str());
                !(i_block || (either && !outgoing))
            })
            .map(|r| ChallengeView::of(r, &me))
            .partition(|c| c.direction == "outgoing");
        let mut lists = ChallengeLists { incoming, outgoing };
        let mut names: Vec<String> = lists
            .incoming
            .iter()
            .chain(&lists.outgoing)
            .map(|c| c.other().to_string())
            .collect();
        names.sort();
        names.dedup();
        // The BOT mark is a nicety: a failed read leaves it off.
        let bots = self.play.store.bot_names(&names).await.unwrap_or_default();
        for c in lists.incoming.iter_mut().chain(lists.outgoing.iter_mut()) {
            c.bot = bots.iter().any(|b| b.eq_ignore_ascii_case(c.other()));
        }
        Ok(lists)
    }

    /// `POST /api/challenges/{id}/accept` by the challenged player: 201 with the game. 404
    /// unless it is an open challenge to `token`'s account.
    pub async fn accept_challenge(
        self: &Arc<Self>,
        token: &PlayerToken,
        id: &str,
    ) -> Result<GameView, SiteError> {
        let me = token.hash();
        let now = now_ms();
        let challenge = match valid_id(id) {
            true => self.play.store.challenge(id).await?,
            false => None,
        }
        .filter(|c| c.challenged == me && c.status == ChallengeStatus::Open)
        .filter(|c| c.expires_at.is_none_or(|e| e > now))
        .ok_or_else(|| no_challenge(id))?;
        if self
            .play
            .store
            .blocked_either_way(me.as_str(), challenge.challenger.as_str())
            .await?
        {
            return Err(no_challenge(id));
        }
        let mut row = self
            .play
            .with_names(lobby_game(
                &challenge.terms,
                &challenge.challenger,
                &me,
                self.play.time().now_ms(),
            )?)
            .await?;
        self.play.started_during_outage(row.clock.as_mut()).await?;
        // The game takes the challenge's id, as on lichess, unless a game has it already (a
        // challenge made before ids were of a game's length, or a chance of 1 in 62^8).
        if id.len() == row.id.len() && self.play.store.load_game(id).await?.is_none() {
            row.id = id.to_string();
        }
        row.outbox = vec![notifications::events::offer_accepted(
            NotificationKind::ChallengeAccepted,
            id,
            &challenge.challenger,
            &row,
        )];
        if !self.play.store.accept_challenge(id, &me, &row).await? {
            return Err(no_challenge(id));
        }
        self.play.notifications.challenge_answered(&me, id).await;
        self.start_lobby_game(row, token, "challenge").await
    }

    /// `POST /api/challenges/{id}/decline` by the challenged player; 404 otherwise.
    pub async fn decline_challenge(&self, token: &PlayerToken, id: &str) -> Result<(), SiteError> {
        self.end_challenge(token, id, ChallengeEnd::Decline).await?;
        self.play
            .notifications
            .challenge_answered(&token.hash(), id)
            .await;
        Ok(())
    }

    /// `DELETE /api/challenges/{id}` by the challenger: cancels an open one, or dismisses an
    /// answered one (its game, if any, stays); 404 otherwise.
    pub async fn cancel_challenge(&self, token: &PlayerToken, id: &str) -> Result<(), SiteError> {
        self.end_challenge(token, id, ChallengeEnd::Cancel).await?;
        // Withdrawn: it no longer counts as unread for the challenged player.
        self.play.notifications.challenge_withdrawn(id).await;
        Ok(())
    }

    async fn end_challenge(
        &self,
        token: &PlayerToken,
        id: &str,
        how: ChallengeEnd,
    ) -> Result<(), SiteError> {
        if !valid_id(id)
            || !self
                .play
                .store
                .end_challenge(id, &token.hash(), how, now_ms())
                .await?
        {
            return Err(no_challenge(id));
        }
        self.touch();
        Ok(())
    }
}
