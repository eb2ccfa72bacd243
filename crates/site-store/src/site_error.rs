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
                    "storage failure: the change was not acknowledged; reload the game to see \
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
