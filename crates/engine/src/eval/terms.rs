//! Evaluations as weighted sums of terms, so that one function serves both the search
//! (a score) and the tuner (the term counts of a position, Texel's method).
//!
//! An evaluation calls [`Terms::add`] once per term occurrence, with the term's index and
//! its count from the side to move's point of view (its own minus the other side's).
//! [`Score`] multiplies by the weights and sums, [`Trace`] keeps the counts.

/// What an evaluation reports its terms to.
pub trait Terms {
    /// Adds `count` occurrences of term `term`.
    fn add(&mut self, term: usize, count: i32);
    /// Adds `count / divisor` occurrences of term `term` (a weight that is a percentage,
    /// say); the score rounds each call toward zero, as integer arithmetic does.
    fn add_scaled(&mut self, term: usize, count: i32, divisor: i32);
}

/// Sums `weight * count` over the terms: the evaluation in centi-units.
#[derive(Debug, Clone, Copy)]
pub struct Score<'w> {
    weights: &'w [i32],
    /// The sum so far.
    pub total: i32,
}

impl<'w> Score<'w> {
    /// A sum of 0 with the weights `weights` (one per term).
    pub fn new(weights: &'w [i32]) -> Self {
        Score { weights, total: 0 }
    }
}

impl Terms for Score<'_> {
    #[inline(always)]
    fn add(&mut self, term: usize, count: i32) {
        self.total += self.weights[term] * count;
    }
    #[inline(always)]
    fn add_scaled(&mut self, term: usize, count: i32, divisor: i32) {
        self.total += self.weights[term] * count / divisor;
    }
}

/// The counts of every term (for tuning): `evaluation = sum(weight * count)` up to the
/// rounding of [`Terms::add_scaled`].
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// One count per term.
    pub counts: Vec<f64>,
}

impl Trace {
    /// Zero counts for `terms` terms.
    pub fn new(terms: usize) -> Self {
        Trace {
            counts: vec![0.0; terms],
        }
    }
}

impl Terms for Trace {
    fn add(&mut self, term: usize, count: i32) {
        self.counts[term] += f64::from(count);
    }
    fn add_scaled(&mut self, term: usize, count: i32, divisor: i32) {
        self.counts[term] += f64::from(count) / f64::from(divisor);
    }
}
