//! A candidate's quality (C.04.3 Article C, C.5-C.19) and its parts: the pairs' colours and
//! floats, the next bracket (C.7), and the lower bounds that prune the search.

use super::{Candidate, Ctx, Mode, Search};
use crate::record::Colour;
use crate::swiss::Float;
use crate::swiss::colour::Strength;
use crate::swiss::matching::matching_size;

/// A candidate's quality: each field lower is better, compared in the order of Article C.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
pub(super) struct Quality {
    /// C.5: the players left unpaired.
    pub(super) unpaired: usize,
    /// C.6: the pairing score difference, highest first.
    pub(super) psd: Vec<u32>,
    /// C.7: the pairs missing in the next bracket.
    pub(super) next_missing: usize,
    /// C.7: then the least PSD of the next bracket.
    pub(super) next_psd: Vec<u32>,
    /// C.8, C.9: topscorers' colour difference and three same colours.
    pub(super) topscorer_difference: usize,
    pub(super) topscorer_three: usize,
    /// C.10, C.11: colour preferences and strong ones not granted.
    pub(super) colour: usize,
    pub(super) strong_colour: usize,
    /// C.12-C.15: repeated downfloats and upfloats, last round and two rounds before.
    pub(super) down1: usize,
    pub(super) up1: usize,
    pub(super) down2: usize,
    pub(super) up2: usize,
    /// C.16-C.19: their score differences, highest first.
    pub(super) down1_sd: Vec<u32>,
    pub(super) up1_sd: Vec<u32>,
    pub(super) down2_sd: Vec<u32>,
    pub(super) up2_sd: Vec<u32>,
}

impl Quality {
    /// Whether nothing after C.6 can improve.
    /// Whether nothing after C.6 can improve when every candidate leaves at least `bounds`
    /// colour preferences and strong ones ungranted.
    pub(super) fn clean_after_colours(&self, bounds: (usize, usize)) -> bool {
        self.next_missing == 0
            && self.topscorer_difference == 0
            && self.topscorer_three == 0
            && self.colour <= bounds.0
            && self.strong_colour <= bounds.1
            && self.down1 == 0
            && self.up1 == 0
            && self.down2 == 0
            && self.up2 == 0
    }
}

impl Ctx<'_> {
    /// C.7: how far the next bracket (these downfloaters, as its MDPs, and the next score
    /// group) is from its most pairs, and then its MDPs left unpaired by score (highest
    /// first): the least PSD. Before the last score group (`last_next`), a pair there also
    /// counts each player who cannot have the bye (so that the bye can go to an eligible
    /// player). Exact by a search over the subsets for up to 16 players; above, only the
    /// number of pairs. The third value says whether nothing better is possible.
    pub(super) fn next_bracket(
        &mut self,
        downfloaters: &[usize],
        next: &[usize],
        last_next: bool,
    ) -> (usize, Vec<u32>, bool) {
        if let Some(known) = self.next_pairs.get(downfloaters) {
            return known.clone();
        }
        let all: Vec<usize> = downfloaters.iter().chain(next).copied().collect();
        let n = all.len();
        let d = downfloaters.len();
        let allowed = |i: usize, j: usize| (i >= d || j >= d) && self.compatible[all[i]][all[j]];
        let value = if n <= 16 {
            let mut levels: Vec<u32> = downfloaters.iter().map(|&i| self.score(i)).collect();
            levels.dedup();
            let level_of = |i: usize| {
                levels
                    .iter()
                    .position(|&l| l == self.score(all[i]))
                    .unwrap_or(0)
            };
            let weight = |i: usize| u32::from(last_next && !self.bye_ok[all[i]]);
            let unit = |i: usize| -> u64 {
                if i < d {
                    1u64 << (8 * (levels.len() - 1 - level_of(i)))
                } else {
                    0
                }
            };
            let mut memo: Vec<Option<(u32, u64)>> = vec![None; 1 << n];
            fn best(
                mask: usize,
                n: usize,
                memo: &mut Vec<Option<(u32, u64)>>,
                edge: &dyn Fn(usize, usize) -> Option<(u32, u64)>,
            ) -> (u32, u64) {
                if let Some(v) = memo[mask] {
                    return v;
                }
                let Some(i) = (0..n).find(|&i| mask & (1 << i) == 0) else {
                    return (0, 0);
                };
                let mut top = best(mask | 1 << i, n, memo, edge);
                for j in i + 1..n {
                    if mask & (1 << j) == 0
                        && let Some((w, u)) = edge(i, j)
                    {
                        let (v, p) = best(mask | 1 << i | 1 << j, n, memo, edge);
                        top = top.max((v + w, p + u));
                    }
                }
                memo[mask] = Some(top);
                top
            }
            let edge = |i: usize, j: usize| {
                allowed(i, j).then(|| (1 + weight(i) + weight(j), unit(i) + unit(j)))
            };
            let (v, packed) = best(0, n, &mut memo, &edge);
            let bound = (n / 2) as u32 + (0..n).map(weight).sum::<u32>();
            let mut unpaired = Vec::with_capacity(levels.len());
            for (k, &l) in levels.iter().enumerate() {
                let total = downfloaters.iter().filter(|&&i| self.score(i) == l).count() as u32;
                let paired = ((packed >> (8 * (levels.len() - 1 - k))) & 0xff) as u32;
                unpaired.push(total - paired);
            }
            let full = v == bound && unpaired.iter().all(|&u| u == 0);
            ((bound - v) as usize, unpaired, full)
        } else {
            let adj: Vec<Vec<usize>> = (0..n)
                .map(|i| (0..n).filter(|&j| allowed(i, j)).collect())
                .collect();
            let missing = n / 2 - matching_size(n, &adj);
            (missing, Vec::new(), missing == 0)
        };
        self.next_pairs.insert(downfloaters.to_vec(), value.clone());
        value
    }

    /// A candidate's quality, `None` when it fails the completion test; and whether its
    /// next bracket can pair every downfloater (C.7 at its best).
    pub(super) fn quality(&mut self, s: &Search<'_>, c: &Candidate) -> Option<(Quality, bool)> {
        // C.4: the downfloaters and everyone below must still be pairable (tested here for
        // the repaired penultimate and the last bracket; after the others, by `pair_all`).
        if matches!(s.mode, Mode::Repair | Mode::Last) {
            let mut rest: Vec<usize> = c.downfloaters.clone();
            rest.extend_from_slice(s.lower);
            rest.sort_unstable();
            if !self.completes(&rest) {
                return None;
            }
        }
        let mut q = Quality {
            unpaired: c.downfloaters.len(),
            ..Quality::default()
        };
        for &(a, b) in &c.pairs {
            q.psd.push(self.score(a).abs_diff(self.score(b)));
            self.add_pair(&mut q, a, b);
        }
        for &d in &c.downfloaters {
            let sd = self.score(d) + 2 - s.lowest_score;
            q.psd.push(sd);
            self.add_float(&mut q, d, Float::Down, sd);
        }
        q.psd.sort_unstable_by(|a, b| b.cmp(a));
        if let Some(next) = s.next {
            let mut down = c.downfloaters.clone();
            down.sort_unstable();
            let full;
            (q.next_missing, q.next_psd, full) =
                self.next_bracket(&down, next, s.mode == Mode::BeforeLast);
            return Some((q, full));
        }
        Some((q, true))
    }

    /// The float of player `i` `back` rounds before this one.
    pub(super) fn float_at(&self, i: usize, back: usize) -> Option<Float> {
        (self.round as usize)
            .checked_sub(1 + back)
            .and_then(|k| self.players[i].floats.get(k).copied().flatten())
    }

    /// Counts a float `f` of player `i` (with its score difference `sd`) when it repeats the
    /// float of the last round or of two rounds before (C.12-C.19).
    pub(super) fn add_float(&self, q: &mut Quality, i: usize, f: Float, sd: u32) {
        let insert = |v: &mut Vec<u32>| {
            let at = v.partition_point(|&x| x >= sd);
            v.insert(at, sd);
        };
        if self.float_at(i, 1) == Some(f) {
            match f {
                Float::Down => {
                    q.down1 += 1;
                    insert(&mut q.down1_sd);
                }
                Float::Up => {
                    q.up1 += 1;
                    insert(&mut q.up1_sd);
                }
            }
        }
        if self.float_at(i, 2) == Some(f) {
            match f {
                Float::Down => {
                    q.down2 += 1;
                    insert(&mut q.down2_sd);
                }
                Float::Up => {
                    q.up2 += 1;
                    insert(&mut q.up2_sd);
                }
            }
        }
    }

    /// Adds what the pair (a, b) costs on C.8-C.19 (the floats and colours).
    pub(super) fn add_pair(&self, q: &mut Quality, a: usize, b: usize) {
        let (sa, sb) = (self.score(a), self.score(b));
        if sa != sb {
            let (hi, lo) = if sa > sb { (a, b) } else { (b, a) };
            self.add_float(q, hi, Float::Down, sa.abs_diff(sb));
            self.add_float(q, lo, Float::Up, sa.abs_diff(sb));
        }
        let (w, bl) = self.colours(a, b);
        // Two absolute preferences (topscorers only) count under C.8/C.9, not C.11.
        let both_absolute = [a, b]
            .iter()
            .all(|&i| self.prefs[i].is_some_and(|p| p.strength == Strength::Absolute));
        for (i, got) in [(w, Colour::White), (bl, Colour::Black)] {
            if let Some(p) = self.prefs[i]
                && p.colour != got
            {
                q.colour += 1;
                if p.strength >= Strength::Strong && !both_absolute {
                    q.strong_colour += 1;
                }
            }
        }
        if self.last_round && (self.topscorer[a] || self.topscorer[b]) {
            for (i, got) in [(w, Colour::White), (bl, Colour::Black)] {
                let step = if got == Colour::White { 1 } else { -1 };
                if (self.differences[i] + step).abs() > 2 {
                    q.topscorer_difference += 1;
                }
                let played = self.players[i].played_colours();
                if played.len() >= 2 && played[played.len() - 2..].iter().all(|&c| c == got) {
                    q.topscorer_three += 1;
                }
            }
        }
    }

    /// Whether a candidate whose pairs so far cost `partial` may still beat the best: the
    /// level's unpaired count and least PSD, no pair missing in the next bracket, and the
    /// costs so far are a lower bound of every candidate that completes it.
    pub(super) fn may_beat(s: &Search<'_>, partial: &Quality, bounds: (usize, usize)) -> bool {
        let Some((best, _)) = &s.best else {
            return true;
        };
        // Unknown, the next bracket's floor is no pair missing and no MDP unpaired (the
        // candidates that tie the best up to here have its number of MDP scores).
        let next_floor = s
            .next_floor
            .clone()
            .unwrap_or_else(|| (0, vec![0; best.next_psd.len()]));
        let head = (s.level_unpaired, &s.ideal_psd, next_floor.0, &next_floor.1);
        let best_head = (best.unpaired, &best.psd, best.next_missing, &best.next_psd);
        match head.cmp(&best_head) {
            std::cmp::Ordering::Less => return true,
            std::cmp::Ordering::Greater => return false,
            std::cmp::Ordering::Equal => {}
        }
        fn tail(q: &Quality, (colour, strong): (usize, usize)) -> impl Ord + '_ {
            (
                q.topscorer_difference,
                q.topscorer_three,
                q.colour + colour,
                q.strong_colour + strong,
                q.down1,
                q.up1,
                q.down2,
                q.up2,
                &q.down1_sd,
                &q.up1_sd,
                &q.down2_sd,
                &q.up2_sd,
            )
        }
        tail(partial, bounds) < tail(best, (0, 0))
    }

    /// The least numbers of colour preferences (C.10) and of strong ones (C.11) that pairing
    /// `pool` can leave ungranted when `unpaired` of them stay unpaired: the players wanting
    /// the colour that more of them want, beyond those that the others and the unpaired can
    /// take, meet in pairs that grant one of the two (for C.11: two strong or absolute
    /// preferences for the same colour, one of them not absolute).
    pub(super) fn colour_bound(
        &self,
        pool: impl Iterator<Item = usize>,
        unpaired: usize,
    ) -> (usize, usize) {
        let (mut white, mut black, mut free, mut n) = (0usize, 0usize, 0usize, 0usize);
        let (mut strong_white, mut strong_black) = (0usize, 0usize);
        for i in pool {
            n += 1;
            let strong = self.prefs[i].is_some_and(|p| p.strength == Strength::Strong);
            match self.prefs[i].map(|p| p.colour) {
                Some(Colour::White) => {
                    white += 1;
                    strong_white += usize::from(strong);
                }
                Some(Colour::Black) => {
                    black += 1;
                    strong_black += usize::from(strong);
                }
                None => free += 1,
            }
        }
        let colour = white.abs_diff(black).saturating_sub(free + unpaired) / 2;
        // A strong preference is lost only against another strong or absolute one of the
        // same colour; count the strong ones against everyone else.
        let strong = |k: usize| (2 * k).saturating_sub(n + unpaired) / 2;
        (colour, strong(strong_white).max(strong(strong_black)))
    }

    /// The least colour preferences (C.10) and strong ones (C.11) not granted when every
    /// player of `s1` is paired with one of `s2`: the players of `s1` wanting a colour, beyond
    /// those of `s2` wanting the other or none, meet one wanting the same.
    pub(super) fn split_bound(
        &self,
        s1: impl Iterator<Item = usize>,
        s2: impl Iterator<Item = usize>,
    ) -> (usize, usize) {
        let count = |it: &mut dyn Iterator<Item = usize>| {
            // white, black, none, strong white, strong black, strong-or-absolute white, black
            let mut c = [0usize; 7];
            for i in it {
                match self.prefs[i] {
                    None => c[2] += 1,
                    Some(p) => {
                        let w = p.colour == Colour::White;
                        c[if w { 0 } else { 1 }] += 1;
                        if p.strength == Strength::Strong {
                            c[if w { 3 } else { 4 }] += 1;
                        }
                        if p.strength >= Strength::Strong {
                            c[if w { 5 } else { 6 }] += 1;
                        }
                    }
                }
            }
            c
        };
        let a = count(&mut s1.into_iter());
        let b = count(&mut s2.into_iter());
        let size2 = b[0] + b[1] + b[2];
        let colour = [
            a[0].saturating_sub(b[1] + b[2]),
            a[1].saturating_sub(b[0] + b[2]),
            (a[0] + a[1]).saturating_sub(b[0] + b[1] + b[2]),
        ]
        .into_iter()
        .max()
        .unwrap_or(0);
        let strong = a[3]
            .saturating_sub(size2 - b[5])
            .max(a[4].saturating_sub(size2 - b[6]));
        (colour, strong)
    }
}
