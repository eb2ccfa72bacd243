//! Watch (issue 41): `GET /api/tv` names the real-time game in progress most worth watching
//! (never a correspondence or unlimited one; rated games of two accounts first, then the highest mean rating: `site_store::tv`); the `/tv`
//! page shows it live and asks again when it ends.

use serde::Serialize;

use site_model::error::SiteError;
use site_model::state::GameKind;
use site_store::Store;

/// `GET /api/tv`'s answer: `{"game": "k3J9xQ2a"|null, "variant", "white", "black",
/// "ratings": {"white": 1712, "black": 1650}, "rated"}` (all but `game` null when no game is
/// in progress).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TvView {
    /// The game's id, `None` when none is in progress.
    pub game: Option<String>,
    /// Its game.
    pub variant: Option<GameKind>,
    /// White's account name (`null`: anonymous).
    pub white: Option<String>,
    /// Black's account name.
    pub black: Option<String>,
    /// Both players' ratings for the game and speed, rounded (1500 without one).
    pub ratings: Option<TvRatings>,
    /// Played rated.
    pub rated: Option<bool>,
}

/// The two players' ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TvRatings {
    /// White's.
    pub white: i64,
    /// Black's.
    pub black: i64,
}

/// The watch service.
#[derive(Clone)]
pub struct Tv {
    store: Store,
}

impl Tv {
    /// The service over `store`.
    pub fn new(store: Store) -> Tv {
        Tv { store }
    }

    /// The game to watch now, of `variant` when given (`antarctos`, `iceage`; 400 naming
    /// `variant` otherwise).
    pub async fn current(&self, variant: Option<&str>) -> Result<TvView, SiteError> {
        let variant = match variant.filter(|v| !v.is_empty()) {
            None => None,
            Some(v) => Some(GameKind::parse(v).ok_or_else(|| {
                SiteError::bad_request(format!(
                    "variant: unknown value '{}' (antarctos or iceage)",
                    game::excerpt(v)
                ))
            })?),
        };
        Ok(match self.store.tv_game(variant).await? {
            None => TvView {
                game: None,
                variant: None,
                white: None,
                black: None,
                ratings: None,
                rated: None,
            },
            Some(g) => TvView {
                game: Some(g.id),
                variant: Some(g.variant),
                white: g.white,
                black: g.black,
                ratings: Some(TvRatings {
                    white: g.white_rating.round() as i64,
                    black: g.black_rating.round() as i64,
                }),
                rated: Some(g.rated),
            },
        })
    }
}
