//! The site's services together, at the top of the crate: play (the games) below, and the
//! modules that use it, each with its own state: the lobby, the analyses of positions, the
//! computer analyses of whole games. Ports of play that higher modules implement (engine
//! seats) are wired here, so that play imports none of them (issue 37).

use std::sync::Arc;

use site_model::time::WallTime;
use site_store::Store;

use crate::analysis::Analyses;
use crate::engine_player::EnginePlayer;
use crate::lobby::Lobby;
use crate::notifications::Notifications;
use crate::play::GameService;
use crate::players::Players;
use crate::puzzles::Puzzles;
use crate::review::Reviews;
use crate::social::Social;
use crate::tournaments::Tournaments;

/// Every service of one site process, as the HTTP layer and the server's wiring hold them.
pub struct Services {
    /// Live games: seats, moves, clocks, sockets.
    pub play: Arc<GameService>,
    /// Seeks, challenges and the lobby's stream.
    pub lobby: Arc<Lobby>,
    /// Analyses and solutions of positions (`POST /api/analysis`, `/api/solve`).
    pub analyses: Arc<Analyses>,
    /// Computer analyses of whole games and imported records.
    pub reviews: Arc<Reviews>,
    /// Profiles, leaderboards and rated statistics.
    pub players: Players,
    /// Preferences, and the profile's own text (issue 41).
    pub profiles: crate::profile::Profiles,
    /// The players' notifications (the same as play's: its changes make them).
    pub notifications: Arc<Notifications>,
    /// E-mail: addresses, their links, account recovery.
    pub mail: Arc<crate::mail::MailService>,
    /// The puzzle trainer.
    pub puzzles: Arc<Puzzles>,
    /// Arenas, Swiss events and round robins (their director runs beside the sweeper).
    pub tournaments: Arc<Tournaments>,
    /// Follows, blocks, reports and moderation (issue 41).
    pub social: Arc<Social>,
    /// Game search (`GET /api/games/search`).
    pub search: crate::game_search::GameSearch,
    /// The game to watch (`GET /api/tv`).
    pub tv: crate::tv::Tv,
    /// Chat: games' players' and watchers' rooms, tournaments', the lobby's (issue 41).
    pub chat: Arc<crate::chat::Chat>,
}

impl Services {
    /// The services of a site on `store`; engines run at most `engine_threads` searches at
    /// once, shared by engine games, analyses and reviews; the game clocks read `time`.
    pub fn new(store: Store, engine_threads: usize, time: WallTime) -> Arc<Services> {
        let play = GameService::new(store, engine_threads, time.clone());
        play.set_engines(Arc::new(EnginePlayer));
        let mail = crate::mail::MailService::new(play.store().clone(), time.clone());
        play.notifications()
            .set_mail(Arc::new(crate::mail::LowTimeMail(mail.clone())));
        let lobby = Lobby::new(play.clone());
        let chat = crate::chat::Chat::new(play.clone());
        Arc::new(Services {
            social: Social::new(lobby.clone()),
            lobby,
            analyses: Analyses::new(play.engine_queue().clone()),
            reviews: Reviews::new(play.clone()),
            players: Players::new(play.store().clone()),
            profiles: crate::profile::Profiles::new(play.store().clone(), chat.clone()),
            puzzles: Puzzles::new(play.store().clone(), time.clone()),
            tournaments: Tournaments::new(play.clone()),
            search: crate::game_search::GameSearch::new(play.store().clone()),
            tv: crate::tv::Tv::new(play.store().clone()),
            chat,
            notifications: play.notifications().clone(),
            mail,
            play,
        })
    }
}
