//! What a site process sets about its services beyond HTTP: storage, the computer analysis's
//! nodes, how long the lobby keeps an absent player's offers, the wall clock the game clocks
//! read, and the bus between processes. site-http's `SiteOptions` holds one; the server reads
//! it when it opens the store and wires the services.

use std::time::Duration;

use site_model::time::WallTime;
use site_store::StoreOptions;

/// The services' options (every field has a default: the production setting).
#[derive(Debug, Clone, Default)]
pub struct ServiceOptions {
    /// Storage settings (a SQLite size cap, for one).
    pub store: StoreOptions,
    /// Nodes searched per position by a game's computer analysis (`None`:
    /// [`crate::review::REVIEW_NODES`]); a test sets it to make the analysis slower or faster.
    pub review_nodes: Option<u64>,
    /// Redis URL of the cross-process bus (`--redis`, server::pubsub implements
    /// [`crate::play::Announcer`] on it); `None`: one process alone, as always.
    pub redis: Option<String>,
    /// How long a real-time seek or challenge outlives its owner's last lobby stream (`None`:
    /// [`crate::lobby::PRESENCE`], 30 s); a test shortens it.
    pub lobby_presence: Option<Duration>,
    /// The wall clock the game clocks read (default: the system's); a clock test moves it
    /// forward instead of sleeping ([`WallTime::advance`]).
    pub time: WallTime,
    /// Whether Web Push may go to `http` and private addresses (`serve
    /// --push-allow-insecure`: a private push service, tests); `false`: `https` to public
    /// hosts only ([`crate::notifications::push::EndpointPolicy`]).
    pub push_allow_insecure: bool,
    /// The SMTP server mail leaves through (`serve --smtp URL`, server::mailer); `None`: no
    /// mail, said once in the log.
    pub smtp: Option<String>,
    /// The sender of the site's mail (`serve --mail-from`).
    pub mail_from: Option<String>,
    /// The start of the links in mail when the site has no `--public-url` (`serve` sets its
    /// own address; tests their server's).
    pub mail_base: Option<String>,
    /// The events the site makes itself (`serve --tournaments-schedule FILE`,
    /// [`crate::tournaments::schedule`]); empty: none.
    pub tournament_schedule: Vec<crate::tournaments::schedule::Entry>,
}
