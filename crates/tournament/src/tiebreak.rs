//! Tie-breaks (FIDE handbook C.07, with the 2009 rule for unplayed games) and the standings
//! ordered by points, then Buchholz cut 1, then Sonneborn-Berger, then direct encounter.
//!
//! Unplayed games (a bye of any kind, a forfeit, an absence), as C.07 says:
//! - In a player's own tie-breaks, an unplayed round `R` of `n` played rounds counts as a game
//!   against a *virtual opponent* who had the player's points before round `R`, got the
//!   opposite result in round `R` and drew every later round:
//!   `Svon = SPR + (1 - SfPR) + 0.5 * (n - R)`; the player's own result in that round counts as
//!   it stands (a forfeit win or a pairing-allocated bye as a win, a half-point bye as a draw).
//! - In the scores of the opponents, their unplayed games count as draws (half a point each).
//!
//! Buchholz cut 1 drops the lowest of the opponents' (and virtual opponents') scores.
//! Values are in points as `f64`, exact (multiples of 0.25).

use serde::{Deserialize, Serialize};

use crate::record::{Points, Tournament, Tpn};

/// One player's tie-break values, in points.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TieBreaks {
    /// The sum of the opponents' adjusted scores less the lowest one.
    pub buchholz_cut1: f64,
    /// The adjusted scores of the opponents beaten plus half those of the opponents drawn.
    pub sonneborn_berger: f64,
    /// The points scored against the other players tied with this one on points, Buchholz
    /// cut 1 and Sonneborn-Berger, when all of them met each other; 0 otherwise.
    pub direct_encounter: f64,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The place, 1-based; players equal on points and every tie-break share a place.
    pub rank: u32,
    /// The player.
    pub tpn: Tpn,
    /// The points.
    pub points: Points,
    /// The tie-breaks.
    pub tiebreaks: TieBreaks,
}

/// A player's score with their unplayed rounds counted as draws, in half points (C.07: how
/// an opponent's score enters the tie-breaks of the players they met).
pub fn adjusted_score(t: &Tournament, tpn: Tpn) -> u32 {
    let Some(p) = t.player(tpn) else { return 0 };
    let n = t.rounds_played();
    (0..n)
        .map(|r| match p.rounds.get(r) {
            Some(e) if e.is_played_game() => e.result.points().0,
            _ => 1,
        })
        .sum()
}

/// Each round's tie-break contribution of a player: the (virtual) opponent's adjusted score
/// and the player's result, both in half points.
fn contributions(t: &Tournament, tpn: Tpn) -> Vec<(u32, u32)> {
    let Some(p) = t.player(tpn) else {
        return Vec::new();
    };
    let n = t.rounds_played();
    let mut out = Vec::with_capacity(n);
    let mut before = 0u32;
    for r in 0..n {
        let entry = p.rounds.get(r);
        let result = entry.map_or(0, |e| e.result.points().0);
        match entry {
            Some(e) if e.is_played_game() => {
                let opponent = e.opponent.unwrap_or(0);
                out.push((adjusted_score(t, opponent), result));
            }
            _ => {
                // Svon = SPR + (1 - SfPR) + 0.5 * (n - R), in half points; R is 1-based.
                let later = (n - (r + 1)) as u32;
                out.push((before + (2 - result) + later, result));
            }
        }
        before += result;
    }
    out
}

/// Buchholz cut 1 of a player, in points.
pub fn buchholz_cut1(t: &Tournament, tpn: Tpn) -> f64 {
    let scores: Vec<u32> = contributions(t, tpn).iter().map(|c| c.0).collect();
    let sum: u32 = scores.iter().sum();
    let lowest = scores.iter().min().copied().unwrap_or(0);
    f64::from(sum - lowest) / 2.0
}

/// Sonneborn-Berger of a player, in points.
pub fn sonneborn_berger(t: &Tournament, tpn: Tpn) -> f64 {
    let quarters: u32 = contributions(t, tpn).iter().map(|(s, r)| s * r).sum();
    f64::from(quarters) / 4.0
}

/// The points that each of `group` scored in played games against the others of `group`,
/// when every two of them met; `None` when some two did not.
pub fn direct_encounter(t: &Tournament, group: &[Tpn]) -> Option<Vec<f64>> {
    let mut out = Vec::with_capacity(group.len());
    for &a in group {
        let p = t.player(a)?;
        let mut half = 0;
        for &b in group.iter().filter(|&&b| b != a) {
            let games: Vec<_> = p
                .rounds
                .iter()
                .filter(|e| e.opponent == Some(b) && e.is_played_game())
                .collect();
            if games.is_empty() {
                return None;
            }
            half += games.iter().map(|e| e.result.points().0).sum::<u32>();
        }
        out.push(f64::from(half) / 2.0);
    }
    Some(out)
}

/// The standings: every player ordered by points, Buchholz cut 1, Sonneborn-Berger, direct
/// encounter (within the group equal on the first three), then TPN.
pub fn standings(t: &Tournament) -> Vec<Standing> {
    let mut rows: Vec<Standing> = t
        .players
        .iter()
        .map(|p| Standing {
            rank: 0,
            tpn: p.tpn,
            points: p.points(),
            tiebreaks: TieBreaks {
                buchholz_cut1: buchholz_cut1(t, p.tpn),
                sonneborn_berger: sonneborn_berger(t, p.tpn),
                direct_encounter: 0.0,
            },
        })
        .collect();
    let key = |s: &Standing| {
        (
            s.points,
            s.tiebreaks.buchholz_cut1.to_bits(),
            s.tiebreaks.sonneborn_berger.to_bits(),
        )
    };
    // Direct encounter within each group equal on points, Buchholz cut 1 and Sonneborn-Berger.
    let mut groups: std::collections::BTreeMap<_, Vec<usize>> = Default::default();
    for (i, s) in rows.iter().enumerate() {
        groups.entry(key(s)).or_default().push(i);
    }
    for members in groups.values().filter(|m| m.len() > 1) {
        let tpns: Vec<Tpn> = members.iter().map(|&i| rows[i].tpn).collect();
        if let Some(points) = direct_encounter(t, &tpns) {
            for (&i, de) in members.iter().zip(points) {
                rows[i].tiebreaks.direct_encounter = de;
            }
        }
    }
    let order = |s: &Standing| {
        (
            std::cmp::Reverse(s.points),
            std::cmp::Reverse(Total(s.tiebreaks.buchholz_cut1)),
            std::cmp::Reverse(Total(s.tiebreaks.sonneborn_berger)),
            std::cmp::Reverse(Total(s.tiebreaks.direct_encounter)),
        )
    };
    rows.sort_by(|a, b| order(a).cmp(&order(b)).then(a.tpn.cmp(&b.tpn)));
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && order(&rows[i]) == order(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i as u32 + 1
        };
    }
    rows
}

/// An `f64` ordered by `total_cmp` (the tie-breaks are finite and exact).
#[derive(PartialEq)]
struct Total(f64);

impl Eq for Total {}

impl PartialOrd for Total {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Total {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}
