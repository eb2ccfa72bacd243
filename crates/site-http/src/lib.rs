//! The site's HTTP edge, the only crate that names axum: routes and extractors, the
//! WebSocket, security headers and origin checks, connection limits and timeouts, rate
//! limits, the embedded page ([`assets`]), and [`error::HttpError`], the domain's error as an
//! HTTP answer. Request bodies are parsed into typed input here (docs/architecture.md).

pub mod assets;
pub mod bearer;
pub mod chat_feed;
pub mod conn;
pub mod error;
pub mod lichess_errors;
pub mod lobby_stream;
pub mod options;
pub mod output_budget;
pub mod player;
pub mod rate_limit;
pub mod routes;
pub mod security;
mod session_watch;
