//! The engine lab's stored runs as `GET /api/stats` shows them (docs/api.md). The rows are
//! built from the lab's reports by the command line (`icebound selfplay|match --database`),
//! so the site needs no dependency on the lab.

use serde::{Deserialize, Serialize};

use site_model::state::GameKind;
use site_store::{LabKind, LabRun, Store, StoreError};

/// Runs of each kind shown per variant by `GET /api/stats`.
pub const RUNS_SHOWN: i64 = 20;

/// A stored run as `GET /api/stats` shows it: the row plus the percentages of all games
/// (rounded half-up to one decimal, like the site's figures).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabRunView {
    /// The stored run.
    #[serde(flatten)]
    pub run: LabRun,
    /// White's wins in % of all games.
    pub white_pct: f64,
    /// Black's wins in % of all games.
    pub black_pct: f64,
    /// Draws in % of all games.
    pub draws_pct: f64,
    /// Capped games in % of all games.
    pub capped_pct: f64,
}

impl From<LabRun> for LabRunView {
    fn from(run: LabRun) -> Self {
        let pct = |n: i64| crate::view::rounded_percent(n, run.games);
        LabRunView {
            white_pct: pct(run.white_wins),
            black_pct: pct(run.black_wins),
            draws_pct: pct(run.draws),
            capped_pct: pct(run.capped),
            run,
        }
    }
}

/// Adds the newest stored runs of `variant` to its `GET /api/stats` object: `selfplay` and
/// `matches`, arrays of [`LabRunView`], newest first, at most [`RUNS_SHOWN`] each.
pub async fn add_shown_runs(
    store: &Store,
    variant: GameKind,
    out: &mut serde_json::Map<String, serde_json::Value>,
) -> Result<(), StoreError> {
    for (key, kind) in [("selfplay", LabKind::Selfplay), ("matches", LabKind::Match)] {
        let runs: Vec<LabRunView> = store
            .lab_runs(variant, kind, RUNS_SHOWN)
            .await?
            .into_iter()
            .map(LabRunView::from)
            .collect();
        let value =
            serde_json::to_value(runs).map_err(|e| StoreError::Encode(format!("lab runs: {e}")))?;
        out.insert(key.to_string(), value);
    }
    Ok(())
}
