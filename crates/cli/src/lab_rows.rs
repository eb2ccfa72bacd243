//! The rows `icebound selfplay|match --database` store: [`LabRun`]s built from the lab's
//! reports (lab::stats, lab::matches), which the site shows in `GET /api/stats`.

use std::collections::BTreeMap;

use lab::matches::MatchReport;
use lab::sprt::SprtParams;
use lab::stats::SelfplayStats;
use rand::Rng;
use rand::distr::Alphanumeric;

use site_store::{LabKind, LabRun, MatchFigures, SprtFigures};

/// How a run was set up, common to self-play and matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunSetup {
    /// The game played.
    pub variant: games::GameKind,
    /// The engine setting (`lab::setting::setting_name`); engine A's in a match.
    pub setting: String,
    /// Run seed.
    pub seed: u64,
    /// Random legal plies at the start of each game.
    pub random_plies: u32,
    /// Ply cap per game.
    pub max_plies: u32,
    /// Wall-clock time of the run in milliseconds.
    pub duration_ms: u64,
    /// The binary that ran it, e.g. `icebound 0.1.0`.
    pub version: String,
}

fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A new run id: 12 letters and digits.
fn new_run_id() -> String {
    rand::rng()
        .sample_iter(&Alphanumeric)
        .take(12)
        .map(char::from)
        .collect()
}

/// The row of a run with tallies `games` (results by colour, end reasons, lengths), without
/// match figures.
fn base_row(setup: &RunSetup, kind: LabKind, games: &SelfplayStats) -> LabRun {
    let white = games.white();
    let interval = white.wilson();
    LabRun {
        id: new_run_id(),
        variant: setup.variant,
        kind,
        setting: setup.setting.clone(),
        seed: setup.seed,
        random_plies: i64::from(setup.random_plies),
        max_plies: i64::from(setup.max_plies),
        games: count(games.games()),
        white_wins: count(games.white_wins),
        black_wins: count(games.black_wins),
        draws: count(games.draws),
        capped: count(games.capped),
        end_reasons: games
            .reasons
            .iter()
            .map(|(reason, n)| (reason.to_string(), count(*n)))
            .collect::<BTreeMap<_, _>>(),
        mean_plies: games.mean_plies(),
        longest_plies: count(games.longest),
        white_score: white.score(),
        white_lower: interval.map(|i| i.lower),
        white_upper: interval.map(|i| i.upper),
        match_figures: None,
        duration_ms: count(setup.duration_ms),
        version: setup.version.clone(),
        finished_at: site_store::now_ms(),
    }
}

/// The row of a finished `icebound selfplay` run.
pub fn selfplay_run(setup: &RunSetup, stats: &SelfplayStats) -> LabRun {
    base_row(setup, LabKind::Selfplay, stats)
}

/// The row of a finished `icebound match` run: `setting_b` is engine B's setting, `games` the
/// tallies of every game by colour (as self-play counts them), `report` A's results and
/// `sprt` the SPRT asked for.
pub fn match_run(
    setup: &RunSetup,
    setting_b: &str,
    games: &SelfplayStats,
    report: &MatchReport,
    sprt: Option<&SprtParams>,
) -> LabRun {
    let mut row = base_row(setup, LabKind::Match, games);
    let elo = report.pairs.elo();
    row.match_figures = Some(MatchFigures {
        setting_b: setting_b.to_string(),
        a_wins: count(report.games.wins),
        a_draws: count(report.games.draws),
        a_losses: count(report.games.losses),
        elo: elo.map(|e| e.elo).filter(|x| x.is_finite()),
        elo_error: elo.map(|e| e.margin()).filter(|x| x.is_finite()),
        sprt: match (sprt, report.sprt) {
            (Some(p), Some(status)) => Some(SprtFigures {
                params: format!(
                    "elo0={},elo1={},alpha={},beta={}",
                    p.elo0, p.elo1, p.alpha, p.beta
                ),
                verdict: status.verdict.as_str().to_string(),
                llr: status.llr,
            }),
            _ => None,
        },
    });
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::{Color, EndReason, Outcome};
    use lab::stats::GameEnd;
    use site::lab::LabRunView;

    fn setup() -> RunSetup {
        RunSetup {
            variant: games::GameKind::Antarctos,
            setting: "level=2".into(),
            seed: u64::MAX,
            random_plies: 4,
            max_plies: 300,
            duration_ms: 1500,
            version: "icebound test".into(),
        }
    }

    #[test]
    fn selfplay_row_carries_the_tallies_and_wilson_interval() {
        let mut stats = SelfplayStats::default();
        let win = GameEnd::Finished(Outcome::Win {
            winner: Color::White,
            reason: EndReason::Breakthrough,
        });
        stats.add(win, 30);
        stats.add(win, 50);
        stats.add(GameEnd::PlyCap, 300);
        let row = selfplay_run(&setup(), &stats);
        assert_eq!(row.kind, LabKind::Selfplay);
        assert_eq!((row.games, row.white_wins, row.capped), (3, 2, 1));
        assert_eq!(row.end_reasons.get("ply cap"), Some(&1));
        assert_eq!(row.longest_plies, 300);
        assert_eq!(row.mean_plies, Some(380.0 / 3.0));
        assert_eq!(row.white_score, Some(1.0));
        let lower = row.white_lower.expect("interval");
        assert!(lower > 0.0 && lower < 1.0, "Wilson lower bound {lower}");
        assert_eq!(row.id.len(), 12);
        let view = LabRunView::from(row);
        assert_eq!((view.white_pct, view.capped_pct), (66.7, 33.3));
    }
}
