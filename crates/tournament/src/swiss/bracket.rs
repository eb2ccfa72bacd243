//! The pairing of the brackets, one after the other (C.04.3 Articles B, C and D).
//!
//! Players are indexes into the ranked list (score descending, then TPN); a bracket's BSNs
//! follow that order.

use std::collections::HashMap;

mod exchange;
mod quality;

use exchange::Exchanges;
use quality::Quality;

use super::colour::{self, Preference, Side, Strength};
use super::matching::{matching_size, maximum_matching};
use super::{RoundPairing, SwissError, SwissPlayer};
use crate::record::Colour;

/// The most candidates evaluated in one bracket before the best so far is taken.
const BUDGET: usize = 2_000_000;

struct Ctx<'a> {
    players: Vec<&'a SwissPlayer>,
    prefs: Vec<Option<Preference>>,
    differences: Vec<i32>,
    topscorer: Vec<bool>,
    compatible: Vec<Vec<bool>>,
    bye_ok: Vec<bool>,
    last_round: bool,
    round: u32,
    initial: Colour,
    completion: HashMap<Vec<usize>, bool>,
    next_pairs: HashMap<Vec<usize>, (usize, Vec<u32>, bool)>,
}

/// Pairs every player (see the module `swiss`).
pub fn pair_all(
    players: &[SwissPlayer],
    round: u32,
    last_round: bool,
    initial: Colour,
) -> Result<RoundPairing, SwissError> {
    let mut ranked: Vec<&SwissPlayer> = players.iter().collect();
    ranked.sort_by(|a, b| b.score.cmp(&a.score).then(a.tpn.cmp(&b.tpn)));
    let n = ranked.len();
    let played: Vec<Vec<Colour>> = ranked.iter().map(|p| p.played_colours()).collect();
    let prefs: Vec<Option<Preference>> = played.iter().map(|c| colour::preference(c)).collect();
    let differences = played
        .iter()
        .map(|c| colour::colour_difference(c))
        .collect();
    // A.7: topscorers, in the last round only: more than half of the points possible.
    let topscorer: Vec<bool> = ranked
        .iter()
        .map(|p| last_round && p.score > round - 1)
        .collect();
    let mut compatible = vec![vec![false; n]; n];
    for a in 0..n {
        for b in 0..n {
            if a == b || ranked[a].opponents.contains(&ranked[b].tpn) {
                continue;
            }
            let absolute_clash = match (prefs[a], prefs[b]) {
                (Some(x), Some(y)) => {
                    x.strength == Strength::Absolute
                        && y.strength == Strength::Absolute
                        && x.colour == y.colour
                }
                _ => false,
            };
            compatible[a][b] = !(absolute_clash && !topscorer[a] && !topscorer[b]);
        }
    }
    let bye_ok = ranked.iter().map(|p| !p.had_bye).collect();
    let mut ctx = Ctx {
        players: ranked,
        prefs,
        differences,
        topscorer,
        compatible,
        bye_ok,
        last_round,
        round,
        initial,
        completion: HashMap::new(),
        next_pairs: HashMap::new(),
    };
    if !ctx.completes(&(0..n).collect::<Vec<_>>()) {
        return Err(SwissError::NoPairing(n));
    }
    // Score groups, highest first.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        match groups.last_mut() {
            Some(g) if ctx.players[g[0]].score == ctx.players[i].score => g.push(i),
            _ => groups.push(vec![i]),
        }
    }
    let mut pairs = Vec::new();
    let mut mdps: Vec<usize> = Vec::new();
    let mut g = 0;
    while g < groups.len() {
        let lower: Vec<usize> = groups[g + 1..].concat();
        let next = groups.get(g + 1).cloned();
        let mode = match &next {
            None => Mode::Last,
            Some(_) if g + 2 == groups.len() => Mode::BeforeLast,
            Some(_) => Mode::Normal,
        };
        let chosen = ctx.pair_bracket(&mdps, &groups[g], &lower, next.as_deref(), mode);
        let mut rest: Vec<usize> = chosen.downfloaters.iter().chain(&lower).copied().collect();
        rest.sort_unstable();
        if mode != Mode::Last && !ctx.completes(&rest) {
            // The downfloaters chosen leave the round incomplete: this bracket is the
            // penultimate pairing bracket (A.9). Paired again with the completion test
            // (C.4) and without C.7, then everyone below is the collapsed last bracket.
            let ppb = ctx.pair_bracket(&mdps, &groups[g], &lower, None, Mode::Repair);
            pairs.extend(ppb.pairs);
            let clb = ctx.pair_bracket(&ppb.downfloaters, &lower, &[], None, Mode::Last);
            pairs.extend(clb.pairs);
            mdps = clb.downfloaters;
            break;
        }
        pairs.extend(chosen.pairs);
        mdps = chosen.downfloaters;
        g += 1;
    }
    if mdps.len() > 1 {
        return Err(SwissError::NoPairing(n));
    }
    let mut games: Vec<(usize, usize)> = pairs;
    games.sort_by_key(|&(a, b)| {
        (
            std::cmp::Reverse(ctx.players[a].score.max(ctx.players[b].score)),
            a.min(b),
        )
    });
    Ok(RoundPairing {
        games: games
            .iter()
            .map(|&(a, b)| {
                let (w, bl) = ctx.colours(a, b);
                (ctx.players[w].tpn, ctx.players[bl].tpn)
            })
            .collect(),
        bye: mdps.first().map(|&i| ctx.players[i].tpn),
    })
}

/// How a bracket is paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// With C.7 on the next bracket, without the completion test (checked afterwards).
    Normal,
    /// The next score group is the last: C.7 also counts the players who cannot have the
    /// bye as paired in the next bracket.
    BeforeLast,
    /// The penultimate pairing bracket, paired again: the completion test, no C.7.
    Repair,
    /// The last bracket (or the collapsed one): everyone paired but one eligible bye.
    Last,
}

/// One candidate of a bracket: its pairs (higher ranked first) and its downfloaters.
#[derive(Clone, Default)]
struct Candidate {
    pairs: Vec<(usize, usize)>,
    downfloaters: Vec<usize>,
}

/// The search of one bracket: the best candidate so far and the count evaluated.
struct Search<'b> {
    bracket: &'b [usize],
    lower: &'b [usize],
    next: Option<&'b [usize]>,
    mode: Mode,
    lowest_score: u32,
    best: Option<(Quality, Candidate)>,
    evaluated: usize,
    /// The PSD below which no candidate of the current level can go.
    ideal_psd: Vec<u32>,
    /// The players left unpaired by every candidate of the current level (at least).
    level_unpaired: usize,
    /// The least colour preferences and strong ones not granted at the current level.
    level_bounds: (usize, usize),
    /// The least C.7 value (pairs missing, PSD of the next bracket) of the current level.
    next_floor: Option<(usize, Vec<u32>)>,
    done: bool,
}

impl Ctx<'_> {
    fn score(&self, i: usize) -> u32 {
        self.players[i].score
    }

    /// (white, black) of the pair (a, b) by E.1-E.5.
    fn colours(&self, a: usize, b: usize) -> (usize, usize) {
        let (h, l) = if a < b { (a, b) } else { (b, a) };
        let side = |i: usize| Side {
            pairing_number: self.players[i].pairing_number,
            by_round: &self.players[i].colours,
            preference: self.prefs[i],
            difference: self.differences[i],
        };
        if colour::allocate(&side(h), &side(l), self.initial) == Colour::White {
            (h, l)
        } else {
            (l, h)
        }
    }

    /// C.4: whether `rest` can all be paired (one of them given the bye when odd).
    fn completes(&mut self, rest: &[usize]) -> bool {
        if let Some(&known) = self.completion.get(rest) {
            return known;
        }
        let n = rest.len();
        let odd = n % 2 == 1;
        let size = n + usize::from(odd);
        let mut adj = vec![Vec::new(); size];
        for i in 0..n {
            for j in 0..n {
                if self.compatible[rest[i]][rest[j]] {
                    adj[i].push(j);
                }
            }
            if odd && self.bye_ok[rest[i]] {
                adj[i].push(n);
                adj[n].push(i);
            }
        }
        let ok = maximum_matching(size, &adj).iter().all(|m| m.is_some());
        self.completion.insert(rest.to_vec(), ok);
        ok
    }

    /// Evaluates a candidate and keeps it when it is the first of the best so far; whether
    /// it passed the completion test (C.4).
    fn offer(&mut self, s: &mut Search<'_>, c: Candidate) -> bool {
        s.evaluated += 1;
        let quality = self.quality(s, &c);
        let Some((q, next_full)) = quality else {
            return false;
        };
        if q.psd <= s.ideal_psd && next_full && q.clean_after_colours(s.level_bounds) {
            s.done = true;
        }
        if s.best.as_ref().is_none_or(|(b, _)| q < *b) {
            s.best = Some((q, c));
        }
        true
    }

    /// The least C.7 value of the level: exact when nobody floats down or there is no next
    /// bracket, else unknown (`None`: no pair missing and every MDP of the next bracket
    /// paired is the floor).
    fn set_next_floor(&mut self, s: &mut Search<'_>) {
        s.next_floor = match s.next {
            Some(next) if s.level_unpaired == 0 => {
                let (missing, psd, _) = self.next_bracket(&[], next, s.mode == Mode::BeforeLast);
                Some((missing, psd))
            }
            Some(_) => None,
            None => Some((0, Vec::new())),
        };
    }

    fn out_of_budget(s: &Search<'_>) -> bool {
        s.done || s.evaluated >= BUDGET
    }

    fn pair_bracket(
        &mut self,
        mdps: &[usize],
        residents: &[usize],
        lower: &[usize],
        next: Option<&[usize]>,
        mode: Mode,
    ) -> Candidate {
        let mut bracket: Vec<usize> = mdps.iter().chain(residents).copied().collect();
        bracket.sort_unstable();
        let lowest_score = bracket.last().map_or(0, |&i| self.score(i));
        let mut s = Search {
            bracket: &bracket,
            lower,
            next,
            mode,
            lowest_score,
            best: None,
            evaluated: 0,
            ideal_psd: Vec::new(),
            level_unpaired: 0,
            level_bounds: (0, 0),
            next_floor: None,
            done: false,
        };
        if mdps.is_empty() {
            self.homogeneous(&mut s, residents, &[], &[], &Quality::default());
        } else {
            self.heterogeneous(&mut s, mdps, residents);
        }
        s.best.map(|(_, c)| c).unwrap_or_else(|| Candidate {
            pairs: Vec::new(),
            downfloaters: bracket.clone(),
        })
    }

    /// The most pairs among `players` by the absolute criteria.
    fn max_pairs(&self, players: &[usize]) -> usize {
        let adj: Vec<Vec<usize>> = players
            .iter()
            .map(|&a| {
                (0..players.len())
                    .filter(|&j| self.compatible[a][players[j]])
                    .collect()
            })
            .collect();
        matching_size(players.len(), &adj)
    }

    /// A homogeneous bracket or a remainder: for each number of pairs from the most down,
    /// the exchanges (D.2) and in each the transpositions (D.1). `fixed` are pairs made
    /// before (a heterogeneous bracket's MDP pairs), `limbo` MDPs that stay unpaired.
    /// Stops at the first number of pairs with a candidate that passes the completion test;
    /// returns whether there was one.
    fn homogeneous(
        &mut self,
        s: &mut Search<'_>,
        players: &[usize],
        fixed: &[(usize, usize)],
        limbo: &[usize],
        base: &Quality,
    ) -> bool {
        let top = fixed.is_empty() && limbo.is_empty();
        let most = self.max_pairs(players);
        for p in (0..=most).rev() {
            if top {
                s.ideal_psd = self.level_psd(s, fixed, limbo, players.len() - 2 * p);
                s.evaluated = 0;
            }
            s.level_unpaired = limbo.len() + players.len() - 2 * p;
            self.set_next_floor(s);
            let bound = self.colour_bound(players.iter().copied(), players.len() - 2 * p);
            if top {
                s.level_bounds = bound;
            }
            if !Self::may_beat(s, base, bound) {
                // No split of this level can beat the best; fewer pairs cannot either.
                return false;
            }
            let mut any = false;
            for (s1, s2) in Exchanges::new(players, p) {
                s.evaluated += 1;
                let split = self.split_bound(s1.iter().copied(), s2.iter().copied());
                if !Self::may_beat(s, base, (bound.0.max(split.0), bound.1.max(split.1))) {
                    continue;
                }
                self.transpositions(s, &s1, &s2, base, &mut |ctx, s, pairs, rest, _| {
                    let mut c = Candidate {
                        pairs: fixed.iter().chain(pairs).copied().collect(),
                        downfloaters: limbo.iter().chain(rest).copied().collect(),
                    };
                    c.downfloaters.sort_unstable();
                    any |= ctx.offer(s, c);
                });
                if Self::out_of_budget(s) {
                    break;
                }
            }
            if any || s.done || (!top && s.evaluated >= BUDGET) {
                return any;
            }
        }
        false
    }

    /// The PSD of a level: `fixed` MDP pairs, the `limbo` MDPs unpaired, `unpaired`
    /// residents left and the other residents paired among themselves: the least that a
    /// candidate of the level can have.
    fn level_psd(
        &self,
        s: &Search<'_>,
        fixed: &[(usize, usize)],
        limbo: &[usize],
        unpaired: usize,
    ) -> Vec<u32> {
        let mut psd: Vec<u32> = fixed
            .iter()
            .map(|&(a, b)| self.score(a).abs_diff(self.score(b)))
            .collect();
        psd.extend(limbo.iter().map(|&d| self.score(d) + 2 - s.lowest_score));
        let resident = s.bracket.last().map_or(0, |&i| self.score(i));
        psd.extend(std::iter::repeat_n(resident + 2 - s.lowest_score, unpaired));
        let pairs = (s.bracket.len() - fixed.len() * 2 - limbo.len() - unpaired) / 2;
        psd.extend(std::iter::repeat_n(0, pairs));
        psd.sort_unstable_by(|a, b| b.cmp(a));
        psd
    }

    /// A heterogeneous bracket: M1 MDPs in S1 (from the most that can be paired down), the
    /// MDP exchanges with the Limbo (D.3), the transpositions of the residents (D.1), then
    /// the remainder as a homogeneous bracket.
    fn heterogeneous(&mut self, s: &mut Search<'_>, mdps: &[usize], residents: &[usize]) {
        let m = mdps.len();
        let all: Vec<usize> = mdps.iter().chain(residents).copied().collect();
        let adj: Vec<Vec<usize>> = (0..all.len())
            .map(|i| {
                (0..all.len())
                    .filter(|&j| (i < m) != (j < m) && self.compatible[all[i]][all[j]])
                    .collect()
            })
            .collect();
        let m1_most = matching_size(all.len(), &adj);
        for m1 in (0..=m1_most).rev() {
            s.evaluated = 0;
            let top: Vec<(usize, usize)> = mdps[..m1].iter().map(|&a| (a, residents[0])).collect();
            s.ideal_psd = self.level_psd(s, &top, &mdps[m1..], (residents.len() - m1) % 2);
            s.level_unpaired = m - m1 + (residents.len() - m1) % 2;
            s.level_bounds = self.colour_bound(all.iter().copied(), s.level_unpaired);
            self.set_next_floor(s);
            let mut any = false;
            for (s1, limbo) in Exchanges::new(mdps, m1) {
                s.evaluated += 1;
                let empty = Quality::default();
                self.transpositions(
                    s,
                    &s1,
                    residents,
                    &empty,
                    &mut |ctx, s, pairs, rest, partial| {
                        let saved = (s.ideal_psd.clone(), s.level_unpaired, s.next_floor.clone());
                        any |= ctx.homogeneous(s, rest, pairs, &limbo, partial);
                        (s.ideal_psd, s.level_unpaired, s.next_floor) = saved;
                    },
                );
                if Self::out_of_budget(s) {
                    break;
                }
            }
            if any || s.done {
                return;
            }
        }
    }

    /// The transpositions of `s2` against `s1` in lexicographic order of BSN (D.1), only
    /// those whose pairs meet the absolute criteria and may still beat the best candidate;
    /// `visit` gets the pairs, the players of `s2` left over and the pairs' costs added to
    /// `base`.
    fn transpositions(
        &mut self,
        s: &mut Search<'_>,
        s1: &[usize],
        s2: &[usize],
        base: &Quality,
        visit: &mut Visit<'_>,
    ) {
        let mut used = vec![false; s2.len()];
        let mut pairs = Vec::with_capacity(s1.len());
        self.transpose(s, s1, s2, &mut used, &mut pairs, base, visit);
    }

    #[allow(clippy::too_many_arguments)]
    fn transpose(
        &mut self,
        s: &mut Search<'_>,
        s1: &[usize],
        s2: &[usize],
        used: &mut Vec<bool>,
        pairs: &mut Vec<(usize, usize)>,
        partial: &Quality,
        visit: &mut Visit<'_>,
    ) {
        if Self::out_of_budget(s) {
            return;
        }
        let depth = pairs.len();
        if depth == s1.len() {
            let rest: Vec<usize> = s2
                .iter()
                .zip(used.iter())
                .filter(|(_, u)| !**u)
                .map(|(&p, _)| p)
                .collect();
            visit(self, s, pairs, &rest, partial);
            return;
        }
        let a = s1[depth];
        for j in 0..s2.len() {
            if used[j] || !self.compatible[a][s2[j]] {
                continue;
            }
            // Every step of the search counts against the budget.
            s.evaluated += 1;
            let mut child = partial.clone();
            self.add_pair(&mut child, a, s2[j]);
            used[j] = true;
            let pool = s1[depth + 1..].iter().copied().chain(
                s2.iter()
                    .zip(used.iter())
                    .filter(|(_, u)| !**u)
                    .map(|(&p, _)| p),
            );
            let general = self.colour_bound(pool, s.level_unpaired);
            let rest2 = s2
                .iter()
                .zip(used.iter())
                .filter(|(_, u)| !**u)
                .map(|(&p, _)| p);
            let split = self.split_bound(s1[depth + 1..].iter().copied(), rest2);
            let bound = (general.0.max(split.0), general.1.max(split.1));
            if !Self::may_beat(s, &child, bound) {
                used[j] = false;
                continue;
            }
            pairs.push((a.min(s2[j]), a.max(s2[j])));
            self.transpose(s, s1, s2, used, pairs, &child, visit);
            pairs.pop();
            used[j] = false;
            if Self::out_of_budget(s) {
                return;
            }
        }
    }
}

/// What a transposition search calls with each complete transposition.
type Visit<'v> =
    dyn for<'s> FnMut(&mut Ctx<'_>, &mut Search<'s>, &[(usize, usize)], &[usize], &Quality) + 'v;
