//! Streak mode (issue 39): puzzles in rising difficulty until the first mistake. A batch is
//! drawn afresh each time: the puzzles from the easiest up (rating, then length) are cut
//! into [`STREAK_LENGTH`] bands of equal size and one is drawn at random in each, so that a
//! batch climbs the whole range and no two streaks are alike. The next batch climbs from
//! where the last one ended (`after`).

use rand::Rng;
use site_model::error::{ErrorCode, SiteError};
use site_model::state::GameKind;

use super::{PuzzleView, Puzzles, StreakView, game_name};

/// Puzzles in a streak's batch.
pub const STREAK_LENGTH: usize = 30;

/// `GET /api/puzzles/streak`'s query, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreakRequest {
    /// The game.
    pub variant: GameKind,
    /// The last puzzle of the previous batch: the batch starts above it in difficulty.
    pub after: Option<String>,
    /// Puzzles left out (those played in this streak).
    pub exclude: Vec<String>,
}

/// `count` indexes of `0..n` rising, one drawn from each of `count` bands of (nearly) equal
/// size; all of them when `n <= count`.
pub fn spread(n: usize, count: usize, rng: &mut impl Rng) -> Vec<usize> {
    if n <= count {
        return (0..n).collect();
    }
    (0..count)
        .map(|b| rng.random_range(b * n / count..(b + 1) * n / count))
        .collect()
}

impl Puzzles {
    /// `GET /api/puzzles/streak`: a batch of up to [`STREAK_LENGTH`] puzzles, easiest
    /// first (the module doc). 400 for an `after` that is no puzzle of the game; an empty
    /// batch when every harder puzzle is excluded.
    pub async fn streak(&self, req: &StreakRequest) -> Result<StreakView, SiteError> {
        let order = self.store.puzzles_by_difficulty(req.variant).await?;
        let from = match &req.after {
            None => 0,
            Some(after) => {
                order
                    .iter()
                    .position(|(id, _)| id == after)
                    .ok_or_else(|| {
                        SiteError::new(
                            ErrorCode::BadRequest,
                            format!("after: no {} puzzle '{after}'", game_name(req.variant)),
                        )
                    })?
                    + 1
            }
        };
        let rest: Vec<i64> = order[from..]
            .iter()
            .filter(|(id, _)| !req.exclude.contains(id))
            .map(|(_, ordinal)| *ordinal)
            .collect();
        let picks = spread(rest.len(), STREAK_LENGTH, &mut rand::rng());
        let mut puzzles = Vec::with_capacity(picks.len());
        for k in picks {
            // A puzzle is never deleted; one missing now is simply left out.
            if let Some(p) = self.store.puzzle_at(req.variant, rest[k]).await? {
                puzzles.push(PuzzleView::of(&p, false));
            }
        }
        Ok(StreakView { puzzles })
    }
}

#[cfg(test)]
mod tests {
    use super::spread;
    use rand::SeedableRng;

    #[test]
    fn a_spread_climbs_every_band_once() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        assert_eq!(spread(5, 30, &mut rng), vec![0, 1, 2, 3, 4]);
        for n in [30, 31, 100, 418, 1000] {
            let picks = spread(n, 30, &mut rng);
            assert_eq!(picks.len(), 30);
            for (b, k) in picks.iter().enumerate() {
                assert!(
                    (b * n / 30..(b + 1) * n / 30).contains(k),
                    "n {n} band {b}: {k}"
                );
            }
            assert!(picks.windows(2).all(|w| w[0] < w[1]), "{picks:?}");
        }
        // Drawn, not fixed: two batches of 418 differ.
        assert_ne!(spread(418, 30, &mut rng), spread(418, 30, &mut rng));
    }
}
