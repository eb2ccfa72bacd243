//! The site's domain services, one module each: [`play`] (live games, moves, takebacks,
//! clocks, engine seats, the timeout sweeper), [`lobby`] (seeks and challenges), [`accounts`]
//! and [`players`] (profiles, leaderboards), [`health`] (what `/healthz` reports),
//! [`analysis`], [`solve`], [`review`] and [`import`] (the computer's work on positions and
//! records), and the views they answer with; [`services`] holds them together, [`options`]
//! their settings. No HTTP: `site-http` turns requests into calls here
//! (docs/architecture.md).

pub mod accounts;
pub mod analysis;
pub mod bot;
pub mod chat;
pub mod engine_memory;
pub mod engine_player;
pub mod engine_queue;
pub mod game_search;
pub mod health;
pub mod import;
pub mod lab;
pub mod live_game;
pub mod lobby;
pub mod mail;
pub mod notifications;
pub mod options;
pub mod permissions;
pub mod play;
pub mod player_games;
pub mod players;
pub mod positions;
pub mod profile;
pub mod puzzles;
pub mod records_read;
pub mod review;
pub mod services;
pub mod social;
pub mod solve;
pub mod timeouts;
pub mod tournaments;
pub mod tv;
pub mod upload;
pub mod view;

pub use play::GameService;
pub use services::Services;
