//! Backups on a schedule (`icebound serve --backup-every 1h --backup-dir DIR --backup-keep N`):
//! one at start, then one every interval, each to a new file named by its UTC time
//! (`icebound-20261130T131500Z.db`, or `.pgdump` for PostgreSQL), keeping the newest N.
//! The copy itself is [`Store::backup_to`]; restoring is in docs/operations.md.

use std::os::unix::fs::DirBuilderExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use site_store::{BackupSummary, Store, StoreError, now_ms};

/// The settings of scheduled backups.
#[derive(Debug, Clone)]
pub struct BackupSchedule {
    /// Time between two backups (at least one second).
    pub every: Duration,
    /// Folder of the backup files (created if missing).
    pub dir: PathBuf,
    /// How many of the newest backups to keep (at least 1); older `icebound-*` backups in
    /// `dir` are removed after each new one.
    pub keep: usize,
}

const PREFIX: &str = "icebound-";

/// The file extension of `store`'s backups.
fn extension(store: &Store) -> &'static str {
    if store.is_sqlite() { "db" } else { "pgdump" }
}

/// `YYYYMMDDTHHMMSSZ` of Unix milliseconds, in UTC (sorts as time does).
pub fn utc_stamp(ms: i64) -> String {
    let date = site::live_game::pgn_date(ms).replace('.', "");
    let secs = ms.div_euclid(1000).rem_euclid(86_400);
    format!(
        "{date}T{:02}{:02}{:02}Z",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// Takes one backup into `dir` now, then removes all but the newest `keep`.
pub async fn backup_now(
    store: &Store,
    dir: &Path,
    keep: usize,
) -> Result<BackupSummary, StoreError> {
    // Backups hold the token-signing secret: a folder only its owner can enter.
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|e| {
            StoreError::Backup(format!("cannot create the folder {}: {e}", dir.display()))
        })?;
    let ext = extension(store);
    let mut name = format!("{PREFIX}{}.{ext}", utc_stamp(now_ms()));
    let mut n = 1;
    while dir.join(&name).exists() {
        // Two backups within one second: a suffix keeps both and the order.
        n += 1;
        name = format!("{PREFIX}{}-{n}.{ext}", utc_stamp(now_ms()));
    }
    let summary = store.backup_to(&dir.join(name)).await?;
    prune(dir, ext, keep.max(1));
    Ok(summary)
}

/// Removes the older `icebound-*.{ext}` files of `dir`, keeping the newest `keep`.
fn prune(dir: &Path, ext: &str, keep: usize) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let suffix = format!(".{ext}");
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.starts_with(PREFIX) && n.ends_with(&suffix))
        .collect();
    names.sort();
    let old = names.len().saturating_sub(keep);
    for name in &names[..old] {
        match std::fs::remove_file(dir.join(name)) {
            Ok(()) => tracing::info!(file = %name, "old backup removed"),
            Err(e) => tracing::warn!(file = %name, error = %e, "cannot remove an old backup"),
        }
    }
}

/// Removes `icebound-*.partial*` files of `dir`: backups cut off by a crash or a kill (a
/// backup is written as `NAME.partial` and renamed when complete, so a cut one never looks
/// complete). Run when a schedule starts; one schedule per folder is assumed.
fn remove_partials(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for name in entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.starts_with(PREFIX) && n.contains(".partial"))
    {
        match std::fs::remove_file(dir.join(&name)) {
            Ok(()) => tracing::info!(file = %name, "unfinished backup of an earlier run removed"),
            Err(e) => {
                tracing::warn!(file = %name, error = %e, "cannot remove an unfinished backup")
            }
        }
    }
}

/// Runs the schedule until the task is dropped: a backup at once, then one per interval.
/// A failed backup is logged and tried again at the next interval; the site goes on.
pub async fn run_schedule(store: Store, schedule: BackupSchedule) {
    remove_partials(&schedule.dir);
    let mut ticks = tokio::time::interval(schedule.every.max(Duration::from_secs(1)));
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        match backup_now(&store, &schedule.dir, schedule.keep).await {
            Ok(s) => tracing::info!(
                file = %s.file.display(),
                bytes = s.bytes,
                games = s.games,
                moves = s.moves,
                "backup written"
            ),
            Err(e) => tracing::error!(error = %e, "backup failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_sort_like_time() {
        assert_eq!(utc_stamp(0), "19700101T000000Z");
        assert_eq!(
            utc_stamp(1_796_083_200_000 + 13 * 3_600_000 + 15 * 60_000 + 7_000),
            "20261201T131507Z"
        );
        assert!(utc_stamp(1_796_083_199_000) < utc_stamp(1_796_083_200_000));
    }

    #[test]
    fn unfinished_backups_of_an_earlier_run_are_removed() {
        let dir = std::env::temp_dir().join(format!("icebound-partials-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        for name in [
            "icebound-20260101T000000Z.db",
            "icebound-20260102T000000Z.db.partial",
            "icebound-20260102T000000Z.db.partial-journal",
            "mine.partial",
        ] {
            std::fs::write(dir.join(name), b"x").expect("file");
        }
        remove_partials(&dir);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .expect("read")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        left.sort();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(left, ["icebound-20260101T000000Z.db", "mine.partial"]);
    }

    #[test]
    fn prune_keeps_the_newest() {
        let dir = std::env::temp_dir().join(format!("icebound-prune-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        for name in [
            "icebound-20260101T000000Z.db",
            "icebound-20260102T000000Z.db",
            "icebound-20260103T000000Z.db",
            "other.db",
            "icebound-20260101T000000Z.pgdump",
        ] {
            std::fs::write(dir.join(name), b"x").expect("file");
        }
        prune(&dir, "db", 2);
        let mut left: Vec<String> = std::fs::read_dir(&dir)
            .expect("read")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [
                "icebound-20260101T000000Z.pgdump",
                "icebound-20260102T000000Z.db",
                "icebound-20260103T000000Z.db",
                "other.db"
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
