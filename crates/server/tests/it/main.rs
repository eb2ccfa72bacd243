//! The integration tests of the server, in one binary (one link, one run): each module is one of
//! the old test files, `common` their shared harness (a real server in this process, fresh
//! databases). The level-8 engine flood is a binary of its own (`tests/engine_flood.rs`): it
//! takes both cores and fills the process's engine memory while it lasts.
//!
//! Tests of one process run side by side, two at a time on two cores. What they share: the
//! test PostgreSQL server, which `storage_faults_postgres` restarts and stops (each PostgreSQL
//! test holds `common::postgres_url`'s shared lock, those hold it alone), and the engine
//! memory pool of `site::engine_memory` (at most 32 searchers; only level 8 keeps one, in `game_page_api`).

mod accounts;
mod also;
mod analysis_api;
mod antarctos_api;
mod bad_input;
mod boosting;
mod bot_api;
mod bot_api_lichess;
mod bot_berserk;
mod bot_opponent_gone;
mod chat;
mod chat_moderation;
mod clock_outages;
mod clocks;
mod common;
mod conditional;
mod cross_site;
mod delivery;
mod email;
mod email_faults;
mod engine_limits;
mod engine_module;
mod fair_play;
mod fair_play_mod;
mod full_disk_wal;
mod game_memory;
mod game_offers;
mod game_page_api;
mod game_search;
mod gone;
mod healthz;
mod iceage_api;
mod import_review;
mod json_shape;
mod lab_runs;
mod layers;
mod limits;
mod lobby;
mod lobby_pairing;
mod login_guard;
mod notifications;
mod player_search;
mod position_faults;
mod prefs;
mod push;
mod puzzle_upkeep;
mod puzzles;
mod qa;
mod ratings;
mod records_budget;
mod redis_resync;
mod replay;
mod sandbag;
mod secrets_at_rest;
mod seek_flood;
mod social;
mod social_races;
mod social_strict;
mod static_files;
mod storage;
mod storage_faults;
mod storage_faults_postgres;
mod tournament_limits;
mod tournaments;
mod tv;
mod upload;
mod upload_race;
mod usernames;
mod vacation;
mod ws_changes;
mod ws_close;
mod ws_flood;
mod ws_session_end;
