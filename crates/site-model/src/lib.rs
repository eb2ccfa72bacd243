//! The site's plain values and pure rules, below every other site crate: game states
//! ([`state`]), clocks and time controls ([`clock`]), Glicko-2 ratings ([`ratings`]), player
//! tokens and their hashes ([`secrets`]), the wall clock games are timed by ([`time`]), the kinds of
//! notification ([`notifications`]), and the domain's error ([`error::SiteError`]).
//! No I/O: no axum, sqlx, tokio, hyper or redis (docs/architecture.md; a test checks it).

pub mod api_tokens;
pub mod chat;
pub mod clock;
pub mod error;
pub mod json_list;
pub mod notifications;
pub mod prefs;
pub mod profile;
pub mod ratings;
pub mod sandbag;
pub mod search;
pub mod secrets;
pub mod social;
pub mod state;
pub mod time;
pub mod tournament;
pub mod usernames;
