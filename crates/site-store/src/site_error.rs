//! [`StoreError`] as the domain's [`SiteError`]: the store sits above the model, so the
//! conversion lives here.

use site_model::error::{ErrorCode, SiteError};

use crate::StoreError;

/// A storage failure as the domain answers it: a stale write is a conflict, an outage being
/// given back is `clocks_owed`, anything else an internal error whose cause is logged here
/// and not shown.
impl From<StoreError> for SiteError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Stale { .. } => SiteError::new(
                ErrorCode::Conflict,
                "the game changed meanwhile; reload it and try again",
            ),
            StoreError::ClocksOwed { .. } => SiteError::new(
                ErrorCode::ClocksOwed,
                "the clocks are being given back the time the database was out of reach; \
                 try again in a moment",
            ),
            StoreError::Commit(e) => {
                tracing::error!(error = %e, "storage failure at commit");
                SiteError::new(
                    ErrorCode::Internal,
                    "storage failure: the change was not acknowledged; reload the page to see \
                     whether it was stored",
                )
            }
            other => {
                tracing::error!(error = %other, "storage failure");
                SiteError::new(ErrorCode::Internal, "storage failure; nothing was changed")
            }
        }
    }
}

/// A storage failure of an upload (`site::upload`), as [`From<StoreError>`] answers it but for
/// an unacknowledged commit: an upload has no game id to reload, and sending it again is safe
/// (a repeat returns the stored game).
pub fn upload_error(e: StoreError) -> SiteError {
    match e {
        StoreError::Commit(e) => {
            tracing::error!(error = %e, "storage failure at an upload's commit");
            SiteError::new(
                ErrorCode::Internal,
                "storage failure: the upload was not acknowledged; sending the same upload \
                 again is safe: a repeat returns the stored game",
            )
        }
        other => SiteError::from(other),
    }
}

/// A storage failure of a tournament action (create, join, withdraw, pause, start), as
/// [`From<StoreError>`] answers it but for an unacknowledged commit, which is worded for the
/// tournament: there is no game to reload.
pub fn tournament_error(e: StoreError) -> SiteError {
    match e {
        StoreError::Commit(e) => {
            tracing::error!(error = %e, "storage failure at a tournament change's commit");
            SiteError::new(
                ErrorCode::Internal,
                "storage failure: the change was not acknowledged; reload the tournament to \
                 see whether it was stored",
            )
        }
        StoreError::Stale { .. } => SiteError::new(
            ErrorCode::Conflict,
            "the tournament changed meanwhile; reload it and try again",
        ),
        other => SiteError::from(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unacknowledged_upload_is_worded_for_the_upload() {
        let e = upload_error(StoreError::Commit(sqlx::Error::PoolTimedOut));
        assert_eq!(e.code, ErrorCode::Internal);
        assert!(
            e.message.contains("sending the same upload again is safe"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("reload the game"), "{}", e.message);
        let e = upload_error(StoreError::Database(sqlx::Error::PoolTimedOut));
        assert_eq!(e.message, "storage failure; nothing was changed");
    }

    #[test]
    fn a_tournament_change_is_worded_for_the_tournament() {
        let e = tournament_error(StoreError::Commit(sqlx::Error::PoolTimedOut));
        assert!(e.message.contains("reload the tournament"), "{}", e.message);
        assert!(!e.message.contains("game"), "{}", e.message);
        let e = tournament_error(StoreError::Database(sqlx::Error::PoolTimedOut));
        assert_eq!(e.message, "storage failure; nothing was changed");
    }
}
