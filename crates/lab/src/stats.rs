//! Statistics of engine games: scores, Elo differences with 95 % error bars, a confidence
//! interval for White's score, and the tallies a self-play run reports (results, end
//! reasons, game lengths).
//!
//! Conventions: a win scores 1, a draw 1/2, a loss 0; Elo is the logistic Elo of chess
//! ratings, `score = 1 / (1 + 10^(-elo/400))`.
//!
//! Error bars (normal approximation to the mean score, as cutechess-cli's `elo.cpp` and
//! fishtest's `stat_util.py` do):
//! - trinomial (independent games): per-game variance
//!   `σ² = w(1-s)² + d(½-s)² + l(0-s)²` with `w, d, l` the observed frequencies and `s` the
//!   mean score; standard error `σ / √n` over `n` games;
//! - pentanomial (game pairs with colours swapped, M. Van den Bergh, "Pentanomial model",
//!   <http://hardy.uhasselt.be/Fishtest/support_MLE_multinomial.pdf>, used by fishtest since
//!   2019): each pair scores `x ∈ {0, ¼, ½, ¾, 1}` (its points / 2); `σ² = Σ p_x (x-s)²` and
//!   standard error `σ / √pairs`. Pairing removes the opening's and the colour's share of the
//!   variance, so this bar is the right one for matches played in pairs.
//!
//! The 95 % Elo interval is `[elo(s - z·se), elo(s + z·se)]`, `z = 1.95996`; its half-width
//! `(upper - lower) / 2` is printed as `±`. A score of 0 or 1 gives an infinite Elo.

use std::collections::BTreeMap;

use game::{Color, EndReason, Outcome};

/// The two-sided 95 % quantile of the standard normal distribution.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The logistic Elo difference that gives expected score `score` (in `[0, 1]`):
/// `-400 log10(1/score - 1)`; `±inf` at 1 and 0.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of a side `elo` logistic Elo points stronger: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference with its 95 % interval (bounds may be infinite).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EloEstimate {
    /// Elo difference at the observed mean score.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub lower: f64,
    /// Upper end of the 95 % interval.
    pub upper: f64,
}

impl EloEstimate {
    /// From a mean score and its standard error: `elo(s)` and `elo(s ∓ z·se)`.
    pub fn from_score(score: f64, std_error: f64) -> Self {
        EloEstimate {
            elo: elo_from_score(score),
            lower: elo_from_score(score - Z95 * std_error),
            upper: elo_from_score(score + Z95 * std_error),
        }
    }

    /// Half-width of the interval, the `±` figure (cutechess-cli's error margin).
    pub fn margin(&self) -> f64 {
        (self.upper - self.lower) / 2.0
    }

    /// `"+12.3 ± 20.1"` (or `"+inf ± inf"`).
    pub fn display(&self) -> String {
        format!("{} ± {}", signed(self.elo), unsigned(self.margin()))
    }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        // `+ 0.0` turns -0.0 into 0.0, so an even score prints as +0.0.
        format!("{:+.1}", x + 0.0)
    }
}

fn unsigned(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".to_string()
    }
}

/// Wins, draws and losses of one side (or of White, for colour statistics).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Counts of wins, draws and losses.
    pub fn new(wins: u64, draws: u64, losses: u64) -> Self {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    /// Number of games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points scored: wins + draws / 2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game; `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// Trinomial per-game variance of the score, `Σ p (x - s)²` over the observed
    /// frequencies (module docs); `None` without games.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = self.games() as f64;
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        Some(w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s * s)
    }

    /// Standard error of the mean score, `σ / √n`.
    pub fn std_error(&self) -> Option<f64> {
        Some((self.variance()? / self.games() as f64).sqrt())
    }

    /// Elo difference with a 95 % error bar from the trinomial model; `None` without games.
    pub fn elo(&self) -> Option<EloEstimate> {
        Some(EloEstimate::from_score(self.score()?, self.std_error()?))
    }

    /// Wilson 95 % interval for the score (see [`wilson_interval`]).
    pub fn wilson(&self) -> Option<Interval> {
        wilson_interval(self.points(), self.games(), Z95)
    }

    /// The same games seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl::new(self.losses, self.draws, self.wins)
    }
}

/// A closed interval `[lower, upper]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub lower: f64,
    /// Upper end.
    pub upper: f64,
}

/// Wilson score interval (E. B. Wilson, "Probable inference, the law of succession, and
/// statistical inference", JASA 22, 1927) for a proportion of `points` out of `n`:
/// `(p + z²/2n ± z √(p(1-p)/n + z²/4n²)) / (1 + z²/n)`, `p = points / n`.
///
/// Draws count as half a point. A score in `[0, 1]` with mean `p` has variance at most
/// `p(1-p)` (equality without draws), so with draws the interval is slightly conservative.
/// Unlike the plain normal interval it stays inside `[0, 1]` and is sound near 0 and 1.
/// `None` when `n` is 0.
pub fn wilson_interval(points: f64, n: u64, z: f64) -> Option<Interval> {
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let p = points / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z2 / n;
    Some(Interval {
        lower: ((centre - half) / denom).max(0.0),
        upper: ((centre + half) / denom).min(1.0),
    })
}

/// Counts of game pairs (same opening, colours swapped) by the pair's points for one side:
/// `counts[k]` is the number of pairs where it scored `k / 2` points (0 = lost both,
/// 1 = a loss and a draw, 2 = two draws or a win and a loss, 3 = a win and a draw,
/// 4 = won both).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// Pairs by half-points scored, 0..=4.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// From the five counts (index = half-points of the pair).
    pub fn new(counts: [u64; 5]) -> Self {
        Pentanomial { counts }
    }

    /// Records one pair in which the side scored `half_points` (0..=4) half-points.
    /// Values above 4 are clamped to 4.
    pub fn add(&mut self, half_points: u8) {
        self.counts[usize::from(half_points.min(4))] += 1;
    }

    /// The pairs of both, category by category.
    pub fn plus(&self, other: &Pentanomial) -> Pentanomial {
        let mut counts = self.counts;
        for (c, o) in counts.iter_mut().zip(other.counts) {
            *c += o;
        }
        Pentanomial { counts }
    }

    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Observed frequency of each pair score `x = k/4`, as `(x, p)`.
    pub fn pdf(&self) -> Option<[(f64, f64); 5]> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let mut out = [(0.0, 0.0); 5];
        for (k, slot) in out.iter_mut().enumerate() {
            *slot = (k as f64 / 4.0, self.counts[k] as f64 / n as f64);
        }
        Some(out)
    }

    /// Mean score per game; `None` without pairs.
    pub fn score(&self) -> Option<f64> {
        Some(self.pdf()?.iter().map(|(x, p)| x * p).sum())
    }

    /// Per-pair variance of the pair score `x ∈ {0, ¼, ½, ¾, 1}`.
    pub fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        Some(self.pdf()?.iter().map(|(x, p)| p * (x - s).powi(2)).sum())
    }

    /// Standard error of the mean score, `σ / √pairs`.
    pub fn std_error(&self) -> Option<f64> {
        Some((self.variance()? / self.pairs() as f64).sqrt())
    }

    /// Elo difference with a 95 % error bar from the pentanomial model.
    pub fn elo(&self) -> Option<EloEstimate> {
        Some(EloEstimate::from_score(self.score()?, self.std_error()?))
    }
}

/// How a lab game ended: by the rules, or by the lab's ply cap (a safety net; such a game
/// has no result and is reported as capped, never as a draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// The rules ended the game.
    Finished(Outcome),
    /// The game reached the ply cap unfinished.
    PlyCap,
}

impl GameEnd {
    /// The winner, `None` for a draw or a capped game.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameEnd::Finished(o) => o.winner(),
            GameEnd::PlyCap => None,
        }
    }

    /// The reason in words: [`EndReason::as_str`], or `ply cap`.
    pub fn reason_text(self) -> &'static str {
        match self {
            GameEnd::Finished(o) => o.reason().as_str(),
            GameEnd::PlyCap => "ply cap",
        }
    }

    /// The reason, `None` for a capped game.
    pub fn reason(self) -> Option<EndReason> {
        match self {
            GameEnd::Finished(o) => Some(o.reason()),
            GameEnd::PlyCap => None,
        }
    }
}

/// The tallies of a self-play run: results by colour, end reasons, lengths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SelfplayStats {
    /// Games won by White.
    pub white_wins: u64,
    /// Games won by Black.
    pub black_wins: u64,
    /// Games drawn by the rules.
    pub draws: u64,
    /// Games stopped by the ply cap (no result).
    pub capped: u64,
    /// Games per end reason text ([`GameEnd::reason_text`]).
    pub reasons: BTreeMap<&'static str, u64>,
    /// Sum of the game lengths in plies (all games, capped ones included).
    pub total_plies: u64,
    /// Longest game in plies.
    pub longest: u64,
}

impl SelfplayStats {
    /// Adds one game that ended as `end` after `plies` plies.
    pub fn add(&mut self, end: GameEnd, plies: u64) {
        match end {
            GameEnd::PlyCap => self.capped += 1,
            GameEnd::Finished(o) => match o.winner() {
                Some(Color::White) => self.white_wins += 1,
                Some(Color::Black) => self.black_wins += 1,
                None => self.draws += 1,
            },
        }
        *self.reasons.entry(end.reason_text()).or_insert(0) += 1;
        self.total_plies += plies;
        self.longest = self.longest.max(plies);
    }

    /// All games, capped ones included.
    pub fn games(&self) -> u64 {
        self.white_wins + self.black_wins + self.draws + self.capped
    }

    /// The finished games from White's side (capped games left out).
    pub fn white(&self) -> Wdl {
        Wdl::new(self.white_wins, self.draws, self.black_wins)
    }

    /// Percentage of `count` among all games (0 without games).
    pub fn percent(&self, count: u64) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            100.0 * count as f64 / n as f64
        }
    }

    /// Mean length in plies over all games; `None` without games.
    pub fn mean_plies(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.total_plies as f64 / n as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 10^(1/4) = 1.778279...: a 100 Elo edge scores 0.640065.
        assert!(close(score_from_elo(100.0), 0.640_065, 1e-6));
        assert!(close(elo_from_score(0.75), 190.848_501_9, 1e-6));
        for elo in [-300.0, -12.5, 0.0, 7.0, 250.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn trinomial_by_hand() {
        // 60 wins, 20 draws, 20 losses: s = 0.7,
        // σ² = 0.6·0.09 + 0.2·0.04 + 0.2·0.49 = 0.16, se = 0.4/10 = 0.04.
        let wdl = Wdl::new(60, 20, 20);
        assert!(close(wdl.score().unwrap(), 0.7, 1e-12));
        assert!(close(wdl.variance().unwrap(), 0.16, 1e-12));
        assert!(close(wdl.std_error().unwrap(), 0.04, 1e-12));
        let e = wdl.elo().unwrap();
        // elo(0.7) = 147.19, elo(0.7 - 0.0784) = 86.83, elo(0.7 + 0.0784) = 218.16.
        assert!(close(e.elo, 147.19, 0.01), "{e:?}");
        assert!(close(e.lower, elo_from_score(0.7 - Z95 * 0.04), 1e-9));
        assert!(close(e.upper, elo_from_score(0.7 + Z95 * 0.04), 1e-9));
        assert!(e.lower < e.elo && e.elo < e.upper);
        assert!(e.margin() > 60.0 && e.margin() < 70.0, "{}", e.margin());
    }

    #[test]
    fn no_games_no_estimate() {
        assert_eq!(Wdl::default().score(), None);
        assert_eq!(Wdl::default().elo(), None);
        assert_eq!(Pentanomial::default().elo(), None);
        assert_eq!(wilson_interval(0.0, 0, Z95), None);
    }

    #[test]
    fn perfect_score_is_infinite() {
        let e = Wdl::new(10, 0, 0).elo().unwrap();
        assert_eq!(e.elo, f64::INFINITY);
        assert_eq!(e.display(), "+inf ± inf");
    }

    #[test]
    fn wilson_by_hand() {
        // 8 of 10, z = 1.96: (0.8 + 0.19208 ± 1.96·√(0.016 + 0.009604)) / 1.38416
        // = [0.49016, 0.94332].
        let i = wilson_interval(8.0, 10, 1.96).unwrap();
        assert!(close(i.lower, 0.490_16, 1e-4), "{i:?}");
        assert!(close(i.upper, 0.943_32, 1e-4), "{i:?}");
        // Zero successes still give a non-empty interval from 0.
        let z = wilson_interval(0.0, 10, 1.96).unwrap();
        assert_eq!(z.lower, 0.0);
        assert!(z.upper > 0.25 && z.upper < 0.35);
    }

    #[test]
    fn pentanomial_by_hand() {
        // Pairs scoring 0, ½, 1, 1½, 2 points: 1, 2, 4, 2, 1 (symmetric): s = 0.5,
        // σ² = (0.25 + 2·0.0625 + 0 + 2·0.0625 + 0.25) / 10 = 0.075.
        let p = Pentanomial::new([1, 2, 4, 2, 1]);
        assert_eq!(p.pairs(), 10);
        assert!(close(p.score().unwrap(), 0.5, 1e-12));
        assert!(close(p.variance().unwrap(), 0.075, 1e-12));
        let e = p.elo().unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        assert!(close(e.upper, -e.lower, 1e-9));
    }

    #[test]
    fn pairing_narrows_the_bar_when_pairs_are_balanced() {
        // 10 pairs each a win and a loss (colour decides everything): the trinomial view
        // sees 10 wins and 10 losses (σ² = 0.25 per game), the pentanomial sees no variance.
        let mut p = Pentanomial::default();
        for _ in 0..10 {
            p.add(2);
        }
        assert_eq!(p.variance(), Some(0.0));
        assert!(Wdl::new(10, 0, 10).std_error().unwrap() > 0.1);
    }

    #[test]
    fn selfplay_tallies() {
        let mut s = SelfplayStats::default();
        let win = |c, r| {
            GameEnd::Finished(Outcome::Win {
                winner: c,
                reason: r,
            })
        };
        s.add(win(Color::White, EndReason::Checkmate), 40);
        s.add(win(Color::Black, EndReason::FrozenKing), 60);
        s.add(win(Color::Black, EndReason::Checkmate), 20);
        s.add(
            GameEnd::Finished(Outcome::Draw {
                reason: EndReason::FiftyMoveRule,
            }),
            200,
        );
        s.add(GameEnd::PlyCap, 1000);
        assert_eq!(s.games(), 5);
        assert_eq!(
            (s.white_wins, s.black_wins, s.draws, s.capped),
            (1, 2, 1, 1)
        );
        assert_eq!(s.reasons.get("checkmate"), Some(&2));
        assert_eq!(s.reasons.get("ply cap"), Some(&1));
        assert_eq!(s.longest, 1000);
        assert!(close(s.mean_plies().unwrap(), 264.0, 1e-12));
        assert!(close(s.percent(2), 40.0, 1e-12));
        assert_eq!(s.white(), Wdl::new(1, 1, 2));
    }
}
