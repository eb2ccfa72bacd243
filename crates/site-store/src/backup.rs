//! Consistent copies of the database while the site runs (issue 9, section 8): SQLite's
//! `VACUUM INTO` (one read transaction: a snapshot that writers do not wait for, in WAL mode),
//! PostgreSQL's `pg_dump` (one `REPEATABLE READ` snapshot of its own). Restoring is in
//! docs/operations.md.

use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use sqlx::{AnyConnection, Connection, Row};

use super::{Store, StoreError, redacted_url};

/// What a backup holds, read back from the copy (SQLite) or counted in the source's
/// snapshot (PostgreSQL: the dump itself is not read back).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupSummary {
    /// The file written.
    pub file: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
    /// Games in the copy (SQLite) or in the database (PostgreSQL, counted just before).
    pub games: i64,
    /// Moves, likewise.
    pub moves: i64,
}

fn backup_error(what: impl Into<String>) -> StoreError {
    StoreError::Backup(what.into())
}

/// `out` with `.partial` appended: the copy is written there and renamed when complete, so a
/// file with the final name is always a whole backup.
fn partial_of(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

impl Store {
    /// Writes a consistent copy of the whole database to `out`, which must not exist yet.
    /// SQLite: a database file (open it, or start `serve` on it, to restore); PostgreSQL: a
    /// `pg_dump --format=custom` archive (`pg_restore` restores it; `pg_dump` must be on
    /// `PATH`).
    pub async fn backup_to(&self, out: &Path) -> Result<BackupSummary, StoreError> {
        if out.exists() {
            return Err(backup_error(format!(
                "{} exists already: choose a new name (a backup never overwrites a file)",
                out.display()
            )));
        }
        let partial = partial_of(out);
        let _ = std::fs::remove_file(&partial);
        // A backup holds the site's token-signing secret: only its owner may read it
        // (created 0600 before anything is written; VACUUM INTO and pg_dump accept an
        // existing empty file and keep its mode).
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&partial)
            .map_err(|e| backup_error(format!("cannot create {}: {e}", partial.display())))?;
        let result = if self.sqlite {
            self.vacuum_into(&partial).await
        } else {
            self.pg_dump(&partial).await
        };
        let (games, moves) = match result {
            Ok(counts) => counts,
            Err(e) => {
                let _ = std::fs::remove_file(&partial);
                return Err(e);
            }
        };
        if let Err(e) = std::fs::set_permissions(&partial, std::fs::Permissions::from_mode(0o600)) {
            let _ = std::fs::remove_file(&partial);
            return Err(backup_error(format!(
                "cannot make {} private: {e}",
                partial.display()
            )));
        }
        std::fs::rename(&partial, out)
            .map_err(|e| backup_error(format!("cannot name the backup {}: {e}", out.display())))?;
        let bytes = std::fs::metadata(out).map(|m| m.len()).unwrap_or(0);
        Ok(BackupSummary {
            file: out.to_path_buf(),
            bytes,
            games,
            moves,
        })
    }

    async fn vacuum_into(&self, partial: &Path) -> Result<(i64, i64), StoreError> {
        let target = partial
            .to_str()
            .ok_or_else(|| backup_error(format!("{} is not UTF-8", partial.display())))?;
        let mut conn = self.conn().await?;
        let result = sqlx::query("VACUUM INTO $1")
            .bind(target)
            .execute(conn.raw())
            .await
            .map(|_| ())
            .map_err(StoreError::from);
        conn.settle(result)?;
        // Read the copy back: it opens, passes SQLite's integrity check, and holds the games.
        let url = format!("sqlite://{target}?mode=ro");
        let mut copy = AnyConnection::connect(&url).await?;
        let check: String = sqlx::query("PRAGMA integrity_check")
            .fetch_one(&mut copy)
            .await?
            .try_get(0)?;
        if check != "ok" {
            return Err(backup_error(format!(
                "the copy fails SQLite's integrity check: {check}"
            )));
        }
        let counts = count_rows(&mut copy).await?;
        copy.close().await?;
        Ok(counts)
    }

    async fn pg_dump(&self, partial: &Path) -> Result<(i64, i64), StoreError> {
        let mut conn = self.conn().await?;
        let counts = async {
            let raw = conn.raw();
            count_rows(raw).await
        }
        .await;
        let counts = conn.settle(counts)?;
        // The password goes through the environment, not the command line others can read.
        let mut url = url::Url::parse(self.url.as_str())
            .map_err(|e| backup_error(format!("bad PostgreSQL URL: {e}")))?;
        let password = url.password().map(|p| {
            percent_encoding::percent_decode_str(p)
                .decode_utf8_lossy()
                .into_owned()
        });
        let _ = url.set_password(None);
        let mut command = tokio::process::Command::new("pg_dump");
        if let Some(password) = password {
            command.env("PGPASSWORD", password);
        }
        let status = command
            .arg("--format=custom")
            .arg("--no-owner")
            .arg("--file")
            .arg(partial)
            .arg("--dbname")
            .arg(url.as_str())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .await
            .map_err(|e| {
                backup_error(format!(
                    "cannot run pg_dump ({e}): install PostgreSQL's client programs \
                     (Debian: postgresql-client)"
                ))
            })?;
        if !status.status.success() {
            let err = String::from_utf8_lossy(&status.stderr);
            return Err(backup_error(format!(
                "pg_dump of {} failed: {}",
                redacted_url(self.url.as_str()),
                err.trim()
            )));
        }
        Ok(counts)
    }
}

async fn count_rows(conn: &mut AnyConnection) -> Result<(i64, i64), StoreError> {
    let games: i64 = sqlx::query("SELECT COUNT(*) AS n FROM games")
        .fetch_one(&mut *conn)
        .await?
        .try_get("n")?;
    let moves: i64 = sqlx::query("SELECT COUNT(*) AS n FROM moves")
        .fetch_one(&mut *conn)
        .await?
        .try_get("n")?;
    Ok((games, moves))
}
