//! The services the CI machine provides to the tests (`.ci/setup-postgres.sh`,
//! `.ci/setup-redis.sh`), found through environment variables. Without one, a test skips
//! its part with a message; under `CI=true` that is a failure, so CI never passes by
//! skipping.

use std::path::PathBuf;

/// Whether this run is CI's (`CI=true`), where a missing service fails the test.
pub fn in_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

/// Says that `what` is missing and its part is not run; panics under CI, naming `setup`,
/// the script that provides it.
pub fn missing(what: &str, setup: &str) {
    assert!(
        !in_ci(),
        "CI=true but {what} is missing: {setup} must run first"
    );
    eprintln!("{what} missing: its part is not run");
}

/// The test PostgreSQL database (`ICEBOUND_TEST_POSTGRES_URL`, set by
/// `.ci/setup-postgres.sh`), or `None` (see [`missing`]). The role may create databases,
/// for a test that needs one of its own.
pub fn postgres_url() -> Option<String> {
    match std::env::var("ICEBOUND_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            missing("ICEBOUND_TEST_POSTGRES_URL", ".ci/setup-postgres.sh");
            None
        }
    }
}

/// A command from the environment variable `var` (`ICEBOUND_TEST_POSTGRES_RESTART`,
/// `_STOP`, `_START`: shell commands that act on the test PostgreSQL), or `None` (see
/// [`missing`]).
pub fn command_from_env(var: &str) -> Option<String> {
    match std::env::var(var) {
        Ok(command) if !command.trim().is_empty() => Some(command),
        _ => {
            missing(var, ".ci/setup-postgres.sh");
            None
        }
    }
}

/// `redis-server` (`ICEBOUND_TEST_REDIS_SERVER`, else `/usr/bin/redis-server`), or `None`
/// (see [`missing`]).
pub fn redis_server() -> Option<PathBuf> {
    let found = std::env::var("ICEBOUND_TEST_REDIS_SERVER")
        .ok()
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .or_else(|| Some(PathBuf::from("/usr/bin/redis-server")))
        .filter(|p| p.exists());
    if found.is_none() {
        missing("redis-server", ".ci/setup-redis.sh");
    }
    found
}

/// A SQLite URL for the file `name` in `dir`, created on first use (`mode=rwc`).
pub fn sqlite_url(dir: &std::path::Path, name: &str) -> String {
    format!("sqlite://{}?mode=rwc", dir.join(name).display())
}

/// The test SMTP server (`ICEBOUND_TEST_SMTP`, host:port, set by `.ci/setup-smtp.sh`) and the
/// maildir it delivers every mail to (`ICEBOUND_TEST_MAILDIR`), or `None` (see [`missing`]).
pub fn smtp() -> Option<(String, PathBuf)> {
    let server = std::env::var("ICEBOUND_TEST_SMTP")
        .ok()
        .filter(|s| !s.is_empty());
    let maildir = std::env::var("ICEBOUND_TEST_MAILDIR")
        .ok()
        .filter(|s| !s.is_empty());
    match (server, maildir) {
        (Some(s), Some(m)) => Some((s, PathBuf::from(m))),
        _ => {
            missing(
                "ICEBOUND_TEST_SMTP and ICEBOUND_TEST_MAILDIR",
                ".ci/setup-smtp.sh",
            );
            None
        }
    }
}
