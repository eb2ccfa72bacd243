//! Database URLs: which ones the store takes ([`normalize_url`]), how they are printed
//! ([`redacted_url`]), and why a SQLite file cannot be opened, said before sqlx says it less
//! clearly.

use super::StoreError;

/// `postgres://`, `postgresql://` and `sqlite:` URLs pass; a bare path becomes a SQLite file
/// that is created if missing. An in-memory SQLite database (no file name, `:memory:`,
/// `mode=memory`) does not: it keeps nothing, and sqlx's `Any` pool gives each of its
/// connections a database of its own.
pub(crate) fn normalize_url(url: &str) -> Result<String, StoreError> {
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        return Ok(url.to_string());
    }
    if let Some(rest) = url.strip_prefix("sqlite:") {
        let rest = rest.strip_prefix("//").unwrap_or(rest);
        let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
        if path.is_empty() || path == ":memory:" || query.split('&').any(|p| p == "mode=memory") {
            return Err(StoreError::BadUrl(url.to_string()));
        }
        return Ok(url.to_string());
    }
    if url.contains("://") || url.is_empty() {
        return Err(StoreError::BadUrl(redacted_url(url)));
    }
    Ok(format!("sqlite://{url}?mode=rwc"))
}

/// What keeps the SQLite file of `url` (a `sqlite:` URL) from opening, when it is plain: a
/// directory, a missing directory, or a missing file without `mode=rwc`.
pub(crate) fn sqlite_open_problem(url: &str) -> Option<StoreError> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let file = std::path::Path::new(path);
    let reason = if file.is_dir() {
        "it is a directory".to_string()
    } else if file.exists() {
        return None;
    } else if let Some(dir) = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !d.exists())
    {
        format!("no such directory {}", dir.display())
    } else if !query.split('&').any(|p| p == "mode=rwc") {
        "no such file (add ?mode=rwc to create it)".to_string()
    } else {
        return None;
    };
    Some(StoreError::SqliteFile {
        path: path.to_string(),
        reason,
    })
}

/// What to do about a read-only file or directory.
const WRITE_ACCESS: &str =
    "give this user write access to the file and its directory, or pass another --database";

/// Whether `e` is SQLite's "attempt to write a readonly database" (`SQLITE_READONLY` and its
/// extended codes).
pub(crate) fn is_read_only(e: &StoreError) -> bool {
    match e {
        StoreError::Database(sqlx::Error::Database(db)) => db
            .code()
            .and_then(|c| c.parse::<i32>().ok())
            .is_some_and(|c| c & 0xff == 8),
        _ => false,
    }
}

/// [`StoreError::SqliteReadOnly`] when the SQLite file of `url` cannot be written (checked
/// after `cause` happened: SQLite does not say which file nor why), else `cause`. Root may
/// write whatever the mode bits say, so the file and its directory are tried for real: a
/// read-only mount or an immutable file (`chattr +i`) refuses root as well.
pub(crate) fn read_only_or(url: &str, cause: StoreError) -> StoreError {
    let sqlite = match &cause {
        StoreError::Database(sqlx::Error::Database(db)) => db.message().to_string(),
        StoreError::Database(e) => e.to_string(),
        _ => return cause,
    };
    let Some(rest) = url.strip_prefix("sqlite:") else {
        return cause;
    };
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let file = std::path::Path::new(path);
    let (reason, hint) = if query.split('&').any(|p| p == "mode=ro") {
        (
            "the URL opens it read-only (mode=ro)".to_string(),
            "open it with ?mode=rwc instead",
        )
    } else if let Some(e) = file
        .is_file()
        .then(|| std::fs::OpenOptions::new().append(true).open(file).err())
        .flatten()
    {
        (format!("the file is read-only ({e})"), WRITE_ACCESS)
    } else if let Some((dir, e)) = directory_write_problem(file) {
        (
            // SQLite creates the file, and its -wal and -shm files, beside it.
            format!("its directory {} is read-only ({e})", dir.display()),
            WRITE_ACCESS,
        )
    } else {
        return cause;
    };
    StoreError::SqliteReadOnly {
        path: path.to_string(),
        reason,
        sqlite,
        hint,
    }
}

/// The directory of `file` and why no file can be created in it, if so (a probe file is
/// created and removed).
fn directory_write_problem(file: &std::path::Path) -> Option<(std::path::PathBuf, std::io::Error)> {
    let dir = match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let name = file.file_name()?.to_string_lossy();
    let probe = dir.join(format!(".{name}.write-check-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            None
        }
        Err(e) => Some((dir, e)),
    }
}

/// Makes the SQLite file of `url` readable by its owner only (0600; it holds hashes of player
/// tokens and invitations, and every game): a missing file that `mode=rwc` would create is
/// created so, and an existing one (with its `-wal` and `-shm`, which SQLite creates with the
/// database file's mode) loses its group and other bits.
#[cfg(unix)]
pub(crate) fn private_sqlite_file(url: &str) {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let Some(rest) = url.strip_prefix("sqlite:") else {
        return;
    };
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
    let file = std::path::Path::new(path);
    if !file.exists() {
        if query.split('&').any(|p| p == "mode=rwc")
            && file
                .parent()
                .is_none_or(|d| d.as_os_str().is_empty() || d.is_dir())
            && let Err(e) = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(file)
        {
            tracing::warn!(file = %path, error = %e, "cannot create the database file 0600");
        }
        return;
    }
    for suffix in ["", "-wal", "-shm"] {
        let f = std::path::PathBuf::from(format!("{path}{suffix}"));
        let Ok(meta) = std::fs::metadata(&f) else {
            continue;
        };
        let mode = meta.permissions().mode();
        if meta.is_file() && mode & 0o077 != 0 {
            match std::fs::set_permissions(&f, std::fs::Permissions::from_mode(mode & 0o700)) {
                Ok(()) => tracing::info!(file = %f.display(), "database file made private (0600)"),
                Err(e) => {
                    tracing::warn!(file = %f.display(), error = %e, "cannot make the database file private")
                }
            }
        }
    }
}

#[cfg(not(unix))]
pub(crate) fn private_sqlite_file(_url: &str) {}

/// `url` fit to print: a password (`postgres://user:password@host/db`) shows as `***`.
pub fn redacted_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority = rest.split(['/', '?']).next().unwrap_or(rest);
    match authority.rsplit_once('@') {
        Some((user_info, host)) => match user_info.split_once(':') {
            Some((user, _password)) => {
                let path = &rest[authority.len()..];
                format!("{scheme}://{user}:***@{host}{path}")
            }
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_normalize() {
        assert_eq!(
            normalize_url("icebound.db").unwrap(),
            "sqlite://icebound.db?mode=rwc"
        );
        assert!(normalize_url("postgres://u:p@h/db").is_ok());
        assert!(matches!(
            normalize_url("mysql://x"),
            Err(StoreError::BadUrl(_))
        ));
        for memory in [
            "sqlite::memory:",
            "sqlite://",
            "sqlite:",
            "sqlite://x.db?mode=memory",
        ] {
            assert!(
                matches!(normalize_url(memory), Err(StoreError::BadUrl(_))),
                "{memory}"
            );
        }
        assert!(normalize_url("sqlite:///tmp/x.db?mode=rwc").is_ok());
    }

    #[test]
    fn passwords_are_not_printed() {
        assert_eq!(
            redacted_url("postgres://icebound:s3cr:et@db.example:5433/icebound?sslmode=disable"),
            "postgres://icebound:***@db.example:5433/icebound?sslmode=disable"
        );
        assert_eq!(
            redacted_url("postgres://icebound@localhost/icebound"),
            "postgres://icebound@localhost/icebound"
        );
        assert_eq!(
            redacted_url("sqlite://icebound.db?mode=rwc"),
            "sqlite://icebound.db?mode=rwc"
        );
        assert_eq!(redacted_url("games.db"), "games.db");
    }
}
