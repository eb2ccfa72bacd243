//! The frozen evaluations as weighted sums of terms (a copy of `crate::eval::terms` of
//! 2026-12-07 without the tuner's trace).
//!
//! An evaluation calls [`Terms::add`] once per term occurrence, with the term's index and
//! its count from the side to move's point of view (its own minus the other side's).
//! [`Score`] multiplies by the weights and sums.

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
