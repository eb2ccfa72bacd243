//! A player's own settings and what their profile shows beyond ratings (issue 41, "Also"):
//! preferences (`GET`/`PUT /api/me/prefs`), the bio and country (`PUT /api/me/profile`), and
//! the recent activity of `GET /api/players/{username}` (docs/api.md, "Preferences and
//! profile"). The values' rules are `site_model::prefs` and `site_model::profile`.

use std::sync::Arc;

use serde::Serialize;
use site_model::error::SiteError;
use site_model::prefs::{Prefs, PrefsPatch};
use site_model::profile::{clean_bio, parse_country};
use site_model::secrets::TokenHash;
use site_model::state::{GameKind, GameStatus};
use site_model::tournament::TournamentStatus;
use site_store::{ProfileAccount, Store, now_ms};

use crate::chat::Chat;
use crate::player_games::{PlayerGameView, game_line};

/// How far back the activity's puzzle counts go (ms: 30 days).
pub const ACTIVITY_WINDOW_MS: i64 = 30 * 86_400_000;
/// Lines of each list of the activity (games, tournaments, follows).
pub const ACTIVITY_LINES: usize = 5;

/// A checked change of the profile's own text (the body of `PUT /api/me/profile`): each
/// field absent is left as it is; the empty text removes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileEdit {
    /// The new bio (`Some(None)`: removed).
    pub bio: Option<Option<String>>,
    /// The new country code (`Some(None)`: removed).
    pub country: Option<Option<String>>,
}

impl ProfileEdit {
    /// Checks the texts sent: 400 naming `bio` (over 400 characters, more than 8 lines, a
    /// control or direction character) or `country` (not an ISO 3166-1 alpha-2 code).
    pub fn parse(bio: Option<&str>, country: Option<&str>) -> Result<ProfileEdit, SiteError> {
        let bio = bio
            .map(|b| clean_bio(b).map(|b| (!b.is_empty()).then_some(b)))
            .transpose()
            .map_err(SiteError::bad_request)?;
        let country = country
            .map(parse_country)
            .transpose()
            .map_err(SiteError::bad_request)?;
        Ok(ProfileEdit { bio, country })
    }
}

/// The profile's own text as answered by `PUT /api/me/profile`: `{"bio": "..." | null,
/// "country": "TR" | null}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProfileText {
    /// The bio, plain text.
    pub bio: Option<String>,
    /// ISO 3166-1 alpha-2 code.
    pub country: Option<String>,
}

/// A tournament of the activity: `{"id", "name", "variant", "status", "won"}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActivityTournament {
    /// The event's id (`/tournament/{id}`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// The game.
    pub variant: GameKind,
    /// `created`, `started`, `finished` or `canceled`.
    pub status: TournamentStatus,
    /// The player is among its winners (first place, ties included).
    pub won: bool,
}

/// A follow of the activity: `{"username", "at"}` (Unix ms).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ActivityFollow {
    /// The account followed.
    pub username: String,
    /// When.
    pub at: i64,
}

/// Puzzles of the last 30 days: `{"attempted", "solved"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ActivityPuzzles {
    /// Puzzles tried.
    pub attempted: i64,
    /// Of them, solved.
    pub solved: i64,
}

/// A profile's recent activity (lichess's "activity"), from what the store already holds:
/// `{"games": [PlayerGameView], "tournaments": [ActivityTournament], "puzzles":
/// ActivityPuzzles, "follows": [ActivityFollow]}`; each list newest first, at most 5.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActivityView {
    /// The last finished games, with their results.
    pub games: Vec<PlayerGameView>,
    /// The last tournaments joined, and whether won.
    pub tournaments: Vec<ActivityTournament>,
    /// Puzzles of the last 30 days.
    pub puzzles: ActivityPuzzles,
    /// The accounts followed last.
    pub follows: Vec<ActivityFollow>,
}

/// The preferences and profile service (what site-http's `/api/me/prefs`, `/api/me/profile`
/// call).
#[derive(Clone)]
pub struct Profiles {
    store: Store,
    /// Chat's mute, which keeps a new bio too.
    chat: Arc<Chat>,
}

impl std::fmt::Debug for Profiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Profiles").finish_non_exhaustive()
    }
}

impl Profiles {
    /// The service over `store`, with `chat`'s mute for bios.
    pub fn new(store: Store, chat: Arc<Chat>) -> Profiles {
        Profiles { store, chat }
    }

    /// `GET /api/me/prefs`: account `id`'s preferences, defaults where unset.
    pub async fn prefs(&self, id: &str) -> Result<Prefs, SiteError> {
        Ok(Prefs::from_stored(
            self.store.prefs_of(id).await?.as_deref(),
        ))
    }

    /// `PUT /api/me/prefs`: `patch` merged over account `id`'s preferences; the whole answered.
    pub async fn set_prefs(&self, id: &str, patch: &PrefsPatch) -> Result<Prefs, SiteError> {
        let mut prefs = self.prefs(id).await?;
        prefs.apply(patch);
        self.store.set_prefs(id, &prefs.to_stored()).await?;
        Ok(prefs)
    }

    /// `PUT /api/me/profile`: stores `edit` for account `username` and answers the texts. A
    /// bio is public text too (issue 41, third hostile round): a new one is refused with 403
    /// `muted` during a moderator's mute (removing one is always allowed), and the profile
    /// hides it while the mute lasts and once the account is closed
    /// ([`ProfileAccount::public_bio`]).
    pub async fn set_profile(
        &self,
        id: &str,
        username: &str,
        edit: ProfileEdit,
    ) -> Result<ProfileText, SiteError> {
        if matches!(edit.bio, Some(Some(_))) {
            self.chat.mute_gate(id, now_ms(), "new bio").await?;
        }
        self.store
            .set_profile_text(id, edit.bio, edit.country)
            .await?;
        let acc = self.store.profile_account(username).await?;
        Ok(ProfileText {
            bio: acc.as_ref().and_then(|a| a.bio.clone()),
            country: acc.and_then(|a| a.country),
        })
    }
}

/// The recent activity of account `acc`.
pub(crate) async fn activity(
    store: &Store,
    acc: &ProfileAccount,
) -> Result<ActivityView, SiteError> {
    let games = match &acc.player_hash {
        Some(hash) => recent_games(store, hash).await?,
        None => Vec::new(),
    };
    let tournaments = store
        .tournaments_of(&acc.id, ACTIVITY_LINES as i64)
        .await?
        .into_iter()
        .map(|t| ActivityTournament {
            won: t.winners.iter().any(|w| w == &acc.username),
            id: t.id,
            name: t.name,
            variant: t.variant,
            status: t.status,
        })
        .collect();
    let (attempted, solved) = store
        .puzzle_counts_since(&acc.id, now_ms() - ACTIVITY_WINDOW_MS)
        .await?;
    let follows = store
        .recent_follows(&acc.id, ACTIVITY_LINES as i64)
        .await?
        .into_iter()
        .map(|f| ActivityFollow {
            username: f.username,
            at: f.since,
        })
        .collect();
    Ok(ActivityView {
        games,
        tournaments,
        puzzles: ActivityPuzzles { attempted, solved },
        follows,
    })
}

/// The player's last finished games (at most [`ACTIVITY_LINES`]), newest first.
async fn recent_games(store: &Store, hash: &TokenHash) -> Result<Vec<PlayerGameView>, SiteError> {
    let found = store.player_games(hash, None, 0, 20).await?;
    let rows: Vec<_> = found
        .rows
        .into_iter()
        .filter(|r| r.status == GameStatus::Finished)
        .take(ACTIVITY_LINES)
        .collect();
    let mut others: Vec<String> = rows
        .iter()
        .flat_map(|r| [r.white.token.clone(), r.black.token.clone()])
        .flatten()
        .filter(|t| t != hash)
        .map(TokenHash::into_string)
        .collect();
    others.sort();
    others.dedup();
    let names = store.usernames_of(&others).await?;
    Ok(rows.iter().map(|r| game_line(r, hash, &names)).collect())
}
