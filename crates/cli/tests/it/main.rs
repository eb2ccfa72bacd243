//! The integration tests of the `icebound` binary, in one binary (one link, one run): each module
//! runs the real binary as a separate process. The browser test is a binary of its own
//! (`tests/browser.rs`), so that one script can run alone.

mod admin_cli;
mod antarctos_cli;
mod backup_cli;
mod chat_processes;
mod common;
mod engine_cli;
mod engine_qa_cli;
mod iceage_cli;
mod lab_cli;
mod lab_db_cli;
mod load_scale;
mod notify_kill;
mod processes;
mod puzzles_cli;
mod qa_cli;
mod readonly_db;
mod records_cli;
mod serve_fsize;
mod serve_kill;
mod serve_limits;
mod socket_processes;
mod tournament_processes;
