//! The `lab_runs` table: one summary row per finished `icebound selfplay` or `icebound match`
//! run (product.md, "a game designer's lab"), shown on the statistics page.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use site_model::state::GameKind;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Store, StoreError, corrupt};

game::text_enum! {
    /// Which lab command made a run; stored in the `kind` column as its text.
    pub enum LabKind ("lab kind") {
        /// `icebound selfplay`: one engine setting plays both sides.
        Selfplay = "selfplay",
        /// `icebound match`: engine A against engine B, each opening with both colours.
        Match = "match",
    }
}

/// SPRT of a match: parameters, last log-likelihood ratio and verdict (lab::sprt).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SprtFigures {
    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05`.
    pub params: String,
    /// `H0`, `H1` or `continue` (`lab::sprt::Verdict::as_str`).
    pub verdict: String,
    /// Log-likelihood ratio of H1 against H0 after the last pair.
    pub llr: f64,
}

/// What only a match has: engine B and A's results against it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MatchFigures {
    /// Engine B's setting (`lab::setting::setting_name`).
    pub setting_b: String,
    /// A's wins.
    pub a_wins: i64,
    /// A's draws (capped games included: a match scores them as draws).
    pub a_draws: i64,
    /// A's losses.
    pub a_losses: i64,
    /// Elo of A over B (pentanomial estimate); `None` when not finite (a 100 % or 0 % score).
    pub elo: Option<f64>,
    /// Half-width of Elo's 95 % interval; `None` when not finite.
    pub elo_error: Option<f64>,
    /// The SPRT, when one was asked for.
    pub sprt: Option<SprtFigures>,
}

/// One finished lab run. Counts are games; lengths are plies; `finished_at` is Unix
/// milliseconds (UTC).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LabRun {
    /// Row id (12 letters and digits).
    pub id: String,
    /// The game the run played; stored as `Variant::NAME`.
    pub variant: GameKind,
    /// The command that made it.
    pub kind: LabKind,
    /// The engine setting (`level=2`, `nodes=2000`); engine A's in a match.
    pub setting: String,
    /// Run seed. In JSON a decimal string: a seed can exceed 2^53, past which JavaScript
    /// numbers lose digits.
    #[serde(with = "seed_text")]
    pub seed: u64,
    /// Random legal plies at the start of each game.
    pub random_plies: i64,
    /// Ply cap per game.
    pub max_plies: i64,
    /// Games played (capped ones included).
    pub games: i64,
    /// Games won by White.
    pub white_wins: i64,
    /// Games won by Black.
    pub black_wins: i64,
    /// Games drawn by the rules.
    pub draws: i64,
    /// Games stopped by the ply cap (no result).
    pub capped: i64,
    /// Games per end reason (`EndReason::as_str`, or `ply cap`).
    pub end_reasons: BTreeMap<String, i64>,
    /// Mean game length in plies; `None` without games.
    pub mean_plies: Option<f64>,
    /// Longest game in plies.
    pub longest_plies: i64,
    /// White's score over the finished games (win 1, draw 1/2); `None` without one.
    pub white_score: Option<f64>,
    /// Lower end of the 95 % Wilson interval of White's score.
    pub white_lower: Option<f64>,
    /// Upper end of the 95 % Wilson interval of White's score.
    pub white_upper: Option<f64>,
    /// The match figures (`kind` = match only).
    #[serde(rename = "match")]
    pub match_figures: Option<MatchFigures>,
    /// Wall-clock time of the run in milliseconds.
    pub duration_ms: i64,
    /// The binary that ran it (`icebound 0.1.0`).
    pub version: String,
    /// When it finished, Unix milliseconds.
    pub finished_at: i64,
}

const COLUMNS: &str = "id, variant, kind, setting, setting_b, seed, random_plies, max_plies, \
     games, white_wins, black_wins, draws, capped, end_reasons, mean_plies, longest_plies, \
     white_score, white_lower, white_upper, a_wins, a_draws, a_losses, elo, elo_error, sprt, \
     sprt_verdict, sprt_llr, duration_ms, version, finished_at";

/// A `u64` written as a decimal string in JSON (and read back from one).
mod seed_text {
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(seed: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&seed.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        text.parse()
            .map_err(|e| D::Error::custom(format!("seed '{text}': {e}")))
    }
}

fn from_row(row: &AnyRow) -> Result<LabRun, sqlx::Error> {
    let variant: String = row.try_get("variant")?;
    let variant = GameKind::parse(&variant)
        .ok_or_else(|| corrupt("variant", format!("unknown variant '{variant}'")))?;
    let kind: String = row.try_get("kind")?;
    let kind =
        LabKind::parse(&kind).ok_or_else(|| corrupt("kind", format!("unknown kind '{kind}'")))?;
    let seed: String = row.try_get("seed")?;
    let seed = seed
        .parse()
        .map_err(|e| corrupt("seed", format!("seed '{seed}': {e}")))?;
    let reasons: String = row.try_get("end_reasons")?;
    let end_reasons = serde_json::from_str(&reasons)
        .map_err(|e| corrupt("end_reasons", format!("end reasons '{reasons}': {e}")))?;
    let match_figures = match kind {
        LabKind::Selfplay => None,
        LabKind::Match => {
            let sprt = match (
                row.try_get::<Option<String>, _>("sprt")?,
                row.try_get::<Option<String>, _>("sprt_verdict")?,
                row.try_get::<Option<f64>, _>("sprt_llr")?,
            ) {
                (Some(params), Some(verdict), Some(llr)) => Some(SprtFigures {
                    params,
                    verdict,
                    llr,
                }),
                _ => None,
            };
            Some(MatchFigures {
                setting_b: row
                    .try_get::<Option<String>, _>("setting_b")?
                    .unwrap_or_default(),
                a_wins: row.try_get::<Option<i64>, _>("a_wins")?.unwrap_or(0),
                a_draws: row.try_get::<Option<i64>, _>("a_draws")?.unwrap_or(0),
                a_losses: row.try_get::<Option<i64>, _>("a_losses")?.unwrap_or(0),
                elo: row.try_get("elo")?,
                elo_error: row.try_get("elo_error")?,
                sprt,
            })
        }
    };
    Ok(LabRun {
        id: row.try_get("id")?,
        variant,
        kind,
        setting: row.try_get("setting")?,
        seed,
        random_plies: row.try_get("random_plies")?,
        max_plies: row.try_get("max_plies")?,
        games: row.try_get("games")?,
        white_wins: row.try_get("white_wins")?,
        black_wins: row.try_get("black_wins")?,
        draws: row.try_get("draws")?,
        capped: row.try_get("capped")?,
        end_reasons,
        mean_plies: row.try_get("mean_plies")?,
        longest_plies: row.try_get("longest_plies")?,
        white_score: row.try_get("white_score")?,
        white_lower: row.try_get("white_lower")?,
        white_upper: row.try_get("white_upper")?,
        match_figures,
        duration_ms: row.try_get("duration_ms")?,
        version: row.try_get("version")?,
        finished_at: row.try_get("finished_at")?,
    })
}

/// `x` when finite: the columns hold no infinities or NaN (PostgreSQL would, SQLite and JSON
/// would not).
fn finite(x: Option<f64>) -> Option<f64> {
    x.filter(|v| v.is_finite())
}

impl Store {
    /// Stores a finished lab run.
    pub async fn insert_lab_run(&self, run: &LabRun) -> Result<(), StoreError> {
        let reasons = serde_json::to_string(&run.end_reasons)
            .map_err(|e| StoreError::Encode(format!("end reasons: {e}")))?;
        let m = run.match_figures.as_ref();
        let sprt = m.and_then(|m| m.sprt.as_ref());
        let mut conn = self.conn().await?;
        let result = sqlx::query(&format!(
            "INSERT INTO lab_runs ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, \
             $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, \
             $27, $28, $29, $30)"
        ))
        .bind(&run.id)
        .bind(run.variant.as_str())
        .bind(run.kind.as_str())
        .bind(&run.setting)
        .bind(m.map(|m| m.setting_b.clone()))
        .bind(run.seed.to_string())
        .bind(run.random_plies)
        .bind(run.max_plies)
        .bind(run.games)
        .bind(run.white_wins)
        .bind(run.black_wins)
        .bind(run.draws)
        .bind(run.capped)
        .bind(reasons)
        .bind(finite(run.mean_plies))
        .bind(run.longest_plies)
        .bind(finite(run.white_score))
        .bind(finite(run.white_lower))
        .bind(finite(run.white_upper))
        .bind(m.map(|m| m.a_wins))
        .bind(m.map(|m| m.a_draws))
        .bind(m.map(|m| m.a_losses))
        .bind(finite(m.and_then(|m| m.elo)))
        .bind(finite(m.and_then(|m| m.elo_error)))
        .bind(sprt.map(|s| s.params.clone()))
        .bind(sprt.map(|s| s.verdict.clone()))
        .bind(finite(sprt.map(|s| s.llr)))
        .bind(run.duration_ms)
        .bind(&run.version)
        .bind(run.finished_at)
        // sqlx 0.8's Any driver sends a NULL f64 to PostgreSQL as a `real` (float4) parameter:
        // a cached statement first run with a NULL would then refuse a later `double`. An
        // unprepared statement takes each run's parameter types afresh.
        .persistent(false)
        .execute(conn.raw())
        .await
        .map(|_| ())
        .map_err(StoreError::from);
        conn.settle(result)
    }

    /// The runs of `variant` made by `kind`, newest first, at most `limit`. A row that
    /// cannot be read (edited by hand, written by a newer version) is left out with a
    /// warning in the log, so one bad row does not hide the others or the site's figures.
    pub async fn lab_runs(
        &self,
        variant: GameKind,
        kind: LabKind,
        limit: i64,
    ) -> Result<Vec<LabRun>, StoreError> {
        let mut conn = self.conn().await?;
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM lab_runs WHERE variant = $1 AND kind = $2 \
             ORDER BY finished_at DESC, id DESC LIMIT $3"
        ))
        .bind(variant.as_str())
        .bind(kind.as_str())
        .bind(limit)
        .fetch_all(conn.raw())
        .await
        .map_err(StoreError::from);
        let rows = conn.settle(rows)?;
        Ok(rows
            .iter()
            .filter_map(|row| match from_row(row) {
                Ok(run) => Some(run),
                Err(e) => {
                    tracing::warn!(error = %e, "lab_runs: unreadable row left out");
                    None
                }
            })
            .collect())
    }
}
