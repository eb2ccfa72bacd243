//! Sequential probability ratio test (SPRT) on a logistic Elo difference, to stop a match as
//! soon as the games tell `H0: elo = elo0` from `H1: elo = elo1`.
//!
//! Model: the generalised SPRT (GSPRT) of fishtest, in its closed-form approximation by
//! M. Van den Bergh, "A simple approximation of the GSPRT"
//! (<http://hardy.uhasselt.be/Fishtest/GSPRT_approximation.pdf>, fishtest's `LLR_alt`).
//! The results are an empirical distribution of outcome values `x` with frequencies `p`:
//! - pentanomial (the default for matches, which play openings in pairs with colours
//!   swapped): one sample per pair, `x = pair points / 2 ∈ {0, ¼, ½, ¾, 1}`;
//! - trinomial: one sample per game, `x ∈ {0, ½, 1}`.
//!
//! With `N` samples, mean `ŝ` and variance `σ̂² = Σ p (x-ŝ)²`, and `s_i = 1/(1+10^(-elo_i/400))`:
//!
//! `LLR = N/2 · ln( Σ p (x-s0)² / Σ p (x-s1)² ) = N/2 · ln( (σ̂² + (ŝ-s0)²) / (σ̂² + (ŝ-s1)²) )`.
//!
//! A category with no observation is given a count of 0.001 first (fishtest's
//! `regularize`), so that a run of identical results does not divide by zero.
//! Wald's bounds: accept H0 when `LLR <= ln(β/(1-α))`, H1 when `LLR >= ln((1-β)/α)`; with
//! `α = β = 0.05` both are `∓2.944`. No verdict before [`MIN_SAMPLES`] samples: in Antarctos
//! three pairs in four split 1-1, and ten such pairs in a row (variance 0 but for the
//! regularisation) gave LLR -3.02, an H0 after 20 games that said nothing (2026-12-02,
//! `off=hlmr`).

use crate::stats::{Pentanomial, Wdl, score_from_elo};

/// What was wrong with SPRT parameters.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// A `key=value` item without `=`.
    #[error("'{0}' is not key=value (expected e.g. elo0=0,elo1=10)")]
    NotKeyValue(String),
    /// A key other than `elo0`, `elo1`, `alpha`, `beta`.
    #[error("unknown SPRT key '{0}' (known: elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    /// A value that is not a finite number.
    #[error("{key}={value}: not a number")]
    BadNumber {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
    },
    /// The same key twice.
    #[error("SPRT key '{0}' given twice")]
    Duplicate(String),
    /// `elo0` or `elo1` missing.
    #[error("SPRT needs both elo0 and elo1 (e.g. elo0=0,elo1=10)")]
    MissingElo,
    /// `elo0 >= elo1`.
    #[error("SPRT needs elo0 < elo1 (got elo0={0}, elo1={1})")]
    EloOrder(f64, f64),
    /// `elo0` or `elo1` outside `[-MAX_SPRT_ELO, MAX_SPRT_ELO]`.
    #[error("SPRT {0}={1} is out of range: Elo bounds must lie within ±{MAX_SPRT_ELO}")]
    EloRange(&'static str, f64),
    /// `alpha` or `beta` outside `(0, 0.5)`.
    #[error("SPRT {0}={1} must be between 0 and 0.5 (exclusive)")]
    BadErrorRate(&'static str, f64),
}

/// Samples (pairs, or games for the trinomial test) needed before a verdict: below it the
/// variance estimate can be near 0 by chance and the LLR meaningless.
pub const MIN_SAMPLES: u64 = 100;

/// Largest Elo bound accepted: beyond it the expected score is 0 or 1 to machine
/// precision and the likelihood ratio is meaningless (a verdict after one pair).
pub const MAX_SPRT_ELO: f64 = 1000.0;

/// The test: hypotheses `elo0 < elo1` and error rates `alpha` (false H1) and `beta`
/// (false H0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtParams {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// The decision after the results so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// LLR reached the lower bound: accept H0 (`elo <= elo0`, as far as the test can tell).
    H0,
    /// LLR reached the upper bound: accept H1 (`elo >= elo1`).
    H1,
    /// Between the bounds: play on.
    Continue,
}

impl Verdict {
    /// `H0`, `H1` or `continue`.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::H0 => "H0",
            Verdict::H1 => "H1",
            Verdict::Continue => "continue",
        }
    }
}

/// LLR, bounds and verdict at one point of a match.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SprtStatus {
    /// Log-likelihood ratio of H1 against H0.
    pub llr: f64,
    /// `ln(β/(1-α))`.
    pub lower: f64,
    /// `ln((1-β)/α)`.
    pub upper: f64,
    /// The decision.
    pub verdict: Verdict,
}

impl SprtParams {
    /// `alpha = beta = 0.05`; errors unless `elo0 < elo1`.
    pub fn new(elo0: f64, elo1: f64) -> Result<Self, SprtError> {
        Self::with_error_rates(elo0, elo1, 0.05, 0.05)
    }

    /// Explicit error rates, each in `(0, 0.5)`.
    pub fn with_error_rates(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
    ) -> Result<Self, SprtError> {
        for (name, v) in [("elo0", elo0), ("elo1", elo1)] {
            if !(-MAX_SPRT_ELO..=MAX_SPRT_ELO).contains(&v) {
                return Err(SprtError::EloRange(name, v));
            }
        }
        if elo0.partial_cmp(&elo1) != Some(std::cmp::Ordering::Less) {
            return Err(SprtError::EloOrder(elo0, elo1));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(SprtError::BadErrorRate(name, v));
            }
        }
        Ok(SprtParams {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Reads `elo0=0,elo1=10`, optionally with `alpha=..`, `beta=..` (default 0.05).
    pub fn parse(text: &str) -> Result<Self, SprtError> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, None, None);
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(item.to_string()))?;
            let (key, value) = (key.trim(), value.trim());
            let slot = match key {
                "elo0" => &mut elo0,
                "elo1" => &mut elo1,
                "alpha" => &mut alpha,
                "beta" => &mut beta,
                _ => return Err(SprtError::UnknownKey(key.to_string())),
            };
            if slot.is_some() {
                return Err(SprtError::Duplicate(key.to_string()));
            }
            let number: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| SprtError::BadNumber {
                    key: key.to_string(),
                    value: value.to_string(),
                })?;
            *slot = Some(number);
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(SprtError::MissingElo);
        };
        Self::with_error_rates(elo0, elo1, alpha.unwrap_or(0.05), beta.unwrap_or(0.05))
    }

    /// Wald's bounds `(ln(β/(1-α)), ln((1-β)/α))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict for a given LLR over `samples` samples ([`Verdict::Continue`] below
    /// [`MIN_SAMPLES`]).
    pub fn status(&self, llr: f64, samples: u64) -> SprtStatus {
        let (lower, upper) = self.bounds();
        let verdict = if samples < MIN_SAMPLES {
            Verdict::Continue
        } else if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        SprtStatus {
            llr,
            lower,
            upper,
            verdict,
        }
    }

    /// The test on game pairs (module docs).
    pub fn status_pentanomial(&self, pairs: &Pentanomial) -> SprtStatus {
        self.status(llr_pentanomial(pairs, self.elo0, self.elo1), pairs.pairs())
    }

    /// The test on single games.
    pub fn status_trinomial(&self, games: &Wdl) -> SprtStatus {
        self.status(llr_trinomial(games, self.elo0, self.elo1), games.games())
    }
}

/// The approximate GSPRT log-likelihood ratio (module docs) for outcome values `xs` seen
/// `counts` times; 0 without observations.
pub fn llr_alt(xs: &[f64], counts: &[u64], elo0: f64, elo1: f64) -> f64 {
    if counts.iter().all(|&c| c == 0) {
        return 0.0;
    }
    let regularized: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let n: f64 = regularized.iter().sum();
    let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
    let spread = |s: f64| -> f64 {
        xs.iter()
            .zip(&regularized)
            .map(|(x, c)| c / n * (x - s).powi(2))
            .sum()
    };
    n / 2.0 * (spread(s0) / spread(s1)).ln()
}

/// LLR on game pairs: samples `x = k/4` for pairs scoring `k` half-points.
pub fn llr_pentanomial(pairs: &Pentanomial, elo0: f64, elo1: f64) -> f64 {
    llr_alt(&[0.0, 0.25, 0.5, 0.75, 1.0], &pairs.counts, elo0, elo1)
}

/// LLR on single games: samples `x ∈ {0, ½, 1}`.
pub fn llr_trinomial(games: &Wdl, elo0: f64, elo1: f64) -> f64 {
    llr_alt(
        &[0.0, 0.5, 1.0],
        &[games.losses, games.draws, games.wins],
        elo0,
        elo1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_bounds_beyond_the_range_are_refused() {
        assert_eq!(
            SprtParams::parse("elo0=0,elo1=1e308"),
            Err(SprtError::EloRange("elo1", 1e308))
        );
        assert_eq!(
            SprtParams::new(-1000.5, 0.0),
            Err(SprtError::EloRange("elo0", -1000.5))
        );
        assert!(SprtParams::new(-1000.0, 1000.0).is_ok());
    }

    #[test]
    fn bounds_for_five_percent() {
        let p = SprtParams::new(0.0, 10.0).unwrap();
        let (lo, hi) = p.bounds();
        // ln(0.05/0.95) = -2.944439.
        assert!(close(lo, -2.944_439, 1e-6));
        assert!(close(hi, 2.944_439, 1e-6));
    }

    #[test]
    fn llr_symmetric_pairs_by_hand() {
        // Pairs 1,2,4,2,1: ŝ = 0.5, σ̂² = 0.075; s0 = 0.5, s1 = elo(10) = 0.5143872.
        // LLR = 10/2 · ln(0.075 / (0.075 + 0.0143872²)) = -0.0137804.
        let llr = llr_pentanomial(&Pentanomial::new([1, 2, 4, 2, 1]), 0.0, 10.0);
        assert!(close(llr, -0.013_780_4, 1e-6), "{llr}");
    }

    #[test]
    fn llr_crosses_upper_bound() {
        // Pairs 10,20,40,60,30 (160 pairs, ŝ = 0.59375): LLR = 2.946225 > 2.944439.
        let pairs = Pentanomial::new([10, 20, 40, 60, 30]);
        let p = SprtParams::new(0.0, 10.0).unwrap();
        let st = p.status_pentanomial(&pairs);
        assert!(close(st.llr, 2.946_225, 1e-5), "{st:?}");
        assert_eq!(st.verdict, Verdict::H1);
    }

    #[test]
    fn llr_trinomial_by_hand() {
        // 50 wins, 20 draws, 30 losses: LLR(0, 10) = 0.672109.
        let llr = llr_trinomial(&Wdl::new(50, 20, 30), 0.0, 10.0);
        assert!(close(llr, 0.672_109, 1e-5), "{llr}");
        assert_eq!(
            SprtParams::new(0.0, 10.0).unwrap().status(llr, 100).verdict,
            Verdict::Continue
        );
    }

    #[test]
    fn regularized_all_draws_leans_to_h0() {
        // Five drawn pairs (empty categories get 0.001): LLR = -2.445187.
        let llr = llr_pentanomial(&Pentanomial::new([0, 0, 5, 0, 0]), 0.0, 10.0);
        assert!(close(llr, -2.445_187, 1e-5), "{llr}");
        assert_eq!(llr_pentanomial(&Pentanomial::default(), 0.0, 10.0), 0.0);
    }

    #[test]
    fn no_verdict_on_a_few_identical_pairs() {
        // The Antarctos run of 2026-12-02: ten pairs, each 1-1. The LLR is below the lower
        // bound, but 10 pairs cannot decide; from 100 pairs on the same LLR would.
        let p = SprtParams::new(0.0, 5.0).unwrap();
        let st = p.status_pentanomial(&Pentanomial::new([0, 0, 10, 0, 0]));
        assert!(st.llr < st.lower, "{st:?}");
        assert_eq!(st.verdict, Verdict::Continue);
        assert_eq!(p.status(st.llr, MIN_SAMPLES - 1).verdict, Verdict::Continue);
        assert_eq!(p.status(st.llr, MIN_SAMPLES).verdict, Verdict::H0);
        let games = p.status_trinomial(&Wdl::new(0, 99, 0));
        assert_eq!(games.verdict, Verdict::Continue);
        assert_eq!(
            p.status_trinomial(&Wdl::new(0, 100, 0)).verdict,
            Verdict::H0
        );
    }

    #[test]
    fn losing_heavily_accepts_h0() {
        let p = SprtParams::new(0.0, 10.0).unwrap();
        let st = p.status_pentanomial(&Pentanomial::new([30, 60, 40, 20, 10]));
        assert_eq!(st.verdict, Verdict::H0);
        assert!(st.llr <= st.lower);
    }

    #[test]
    fn parse_accepts_and_rejects() {
        let p = SprtParams::parse("elo0=0,elo1=10").unwrap();
        assert_eq!((p.elo0, p.elo1, p.alpha, p.beta), (0.0, 10.0, 0.05, 0.05));
        let q = SprtParams::parse(" elo0=-5 , elo1=5, alpha=0.1").unwrap();
        assert_eq!((q.elo0, q.elo1, q.alpha), (-5.0, 5.0, 0.1));
        assert_eq!(SprtParams::parse("elo0=0"), Err(SprtError::MissingElo));
        assert_eq!(
            SprtParams::parse("elo0=10,elo1=0"),
            Err(SprtError::EloOrder(10.0, 0.0))
        );
        assert!(matches!(
            SprtParams::parse("elo0=0,elo1=x"),
            Err(SprtError::BadNumber { .. })
        ));
        assert!(matches!(
            SprtParams::parse("elo0=0,elo1=5,gamma=1"),
            Err(SprtError::UnknownKey(k)) if k == "gamma"
        ));
        assert!(matches!(
            SprtParams::parse("elo0=0,elo0=1"),
            Err(SprtError::Duplicate(_))
        ));
        assert!(matches!(
            SprtParams::parse("elo0 0"),
            Err(SprtError::NotKeyValue(_))
        ));
        assert!(matches!(
            SprtParams::parse("elo0=0,elo1=5,beta=0.7"),
            Err(SprtError::BadErrorRate("beta", _))
        ));
        let e = SprtParams::parse("elo0=0,elo1=nan").unwrap_err();
        assert_eq!(e.to_string(), "elo1=nan: not a number");
    }
}
