//! The pairing of the brackets, one after the other (C.04.3 Articles B, C and D).
//!
//! Players are indexes into the ranked list (score descending, then TPN); a bracket's BSNs
//! follow that order.

use std::collections::HashMap;

use super::colour::{self, Preference, Side, Strength};
use super::matching::{matching_size, maximum_matching};
use super::{Float, RoundPairing, SwissError, SwissPlayer};
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

/// A candidate's quality: each field lower is better, compared in the order of Article C.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Default)]
struct Quality {
    /// C.5: the players left unpaired.
    unpaired: usize,
    /// C.6: the pairing score difference, highest first.
    psd: Vec<u32>,
    /// C.7: the pairs missing in the next bracket.
    next_missing: usize,
    /// C.7: then the least PSD of the next bracket.
    next_psd: Vec<u32>,
    /// C.8, C.9: topscorers' colour difference and three same colours.
    topscorer_difference: usize,
    topscorer_three: usize,
    /// C.10, C.11: colour preferences and strong ones not granted.
    colour: usize,
    strong_colour: usize,
    /// C.12-C.15: repeated downfloats and upfloats, last round and two rounds before.
    down1: usize,
    up1: usize,
    down2: usize,
    up2: usize,
    /// C.16-C.19: their score differences, highest first.
    down1_sd: Vec<u32>,
    up1_sd: Vec<u32>,
    down2_sd: Vec<u32>,
    up2_sd: Vec<u32>,
}

impl Quality {
    /// Whether nothing after C.6 can improve.
    fn clean_after_psd(&self) -> bool {
        self.next_missing == 0
            && self.topscorer_difference == 0
            && self.topscorer_three == 0
            && self.colour == 0
            && self.strong_colour == 0
            && self.down1 == 0
            && self.up1 == 0
            && self.down2 == 0
            && self.up2 == 0
    }
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
    /// The least C.7 value (pairs missing, PSD of the next bracket) of the current level.
    next_floor: (usize, Vec<u32>),
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
            tpn: self.players[i].tpn,
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

    /// C.7: how far the next bracket (these downfloaters, as its MDPs, and the next score
    /// group) is from its most pairs, and then its MDPs left unpaired by score (highest
    /// first): the least PSD. Before the last score group (`last_next`), a pair there also
    /// counts each player who cannot have the bye (so that the bye can go to an eligible
    /// player). Exact by a search over the subsets for up to 16 players; above, only the
    /// number of pairs. The third value says whether nothing better is possible.
    fn next_bracket(
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
    fn quality(&mut self, s: &Search<'_>, c: &Candidate) -> Option<(Quality, bool)> {
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
    fn float_at(&self, i: usize, back: usize) -> Option<Float> {
        (self.round as usize)
            .checked_sub(1 + back)
            .and_then(|k| self.players[i].floats.get(k).copied().flatten())
    }

    /// Counts a float `f` of player `i` (with its score difference `sd`) when it repeats the
    /// float of the last round or of two rounds before (C.12-C.19).
    fn add_float(&self, q: &mut Quality, i: usize, f: Float, sd: u32) {
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
    fn add_pair(&self, q: &mut Quality, a: usize, b: usize) {
        let (sa, sb) = (self.score(a), self.score(b));
        if sa != sb {
            let (hi, lo) = if sa > sb { (a, b) } else { (b, a) };
            self.add_float(q, hi, Float::Down, sa.abs_diff(sb));
            self.add_float(q, lo, Float::Up, sa.abs_diff(sb));
        }
        let (w, bl) = self.colours(a, b);
        for (i, got) in [(w, Colour::White), (bl, Colour::Black)] {
            if let Some(p) = self.prefs[i]
                && p.colour != got
            {
                q.colour += 1;
                if p.strength >= Strength::Strong {
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
    fn may_beat(s: &Search<'_>, partial: &Quality, colour_bound: usize) -> bool {
        let Some((best, _)) = &s.best else {
            return true;
        };
        let head = (
            s.level_unpaired,
            &s.ideal_psd,
            s.next_floor.0,
            &s.next_floor.1,
        );
        let best_head = (best.unpaired, &best.psd, best.next_missing, &best.next_psd);
        match head.cmp(&best_head) {
            std::cmp::Ordering::Less => return true,
            std::cmp::Ordering::Greater => return false,
            std::cmp::Ordering::Equal => {}
        }
        fn tail(q: &Quality, bound: usize) -> impl Ord + '_ {
            (
                q.topscorer_difference,
                q.topscorer_three,
                q.colour + bound,
                q.strong_colour,
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
        tail(partial, colour_bound) < tail(best, 0)
    }

    /// Evaluates a candidate and keeps it when it is the first of the best so far; whether
    /// it passed the completion test (C.4).
    fn offer(&mut self, s: &mut Search<'_>, c: Candidate) -> bool {
        s.evaluated += 1;
        let quality = self.quality(s, &c);
        let Some((q, next_full)) = quality else {
            return false;
        };
        if q.psd <= s.ideal_psd && next_full && q.clean_after_psd() {
            s.done = true;
        }
        if s.best.as_ref().is_none_or(|(b, _)| q < *b) {
            s.best = Some((q, c));
        }
        true
    }

    /// The least number of colour preferences (C.10) that pairing `pool` can leave
    /// ungranted when `unpaired` of them stay unpaired: the players wanting the colour that
    /// more of them want, beyond those that the others and the unpaired can take, meet in
    /// pairs that grant one of the two.
    fn colour_bound(&self, pool: impl Iterator<Item = usize>, unpaired: usize) -> usize {
        let (mut white, mut black, mut free) = (0usize, 0usize, 0usize);
        for i in pool {
            match self.prefs[i].map(|p| p.colour) {
                Some(Colour::White) => white += 1,
                Some(Colour::Black) => black += 1,
                None => free += 1,
            }
        }
        white.abs_diff(black).saturating_sub(free + unpaired) / 2
    }

    /// The least C.7 value of the level: exact when nobody floats down, else none known.
    fn set_next_floor(&mut self, s: &mut Search<'_>) {
        s.next_floor = match s.next {
            Some(next) if s.level_unpaired == 0 => {
                let (missing, psd, _) = self.next_bracket(&[], next, s.mode == Mode::BeforeLast);
                (missing, psd)
            }
            _ => (0, Vec::new()),
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
            next_floor: (0, Vec::new()),
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
            if !Self::may_beat(s, base, bound) {
                // No split of this level can beat the best; fewer pairs cannot either.
                return false;
            }
            let mut any = false;
            for (s1, s2) in Exchanges::new(players, p) {
                s.evaluated += 1;
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
            let mut child = partial.clone();
            self.add_pair(&mut child, a, s2[j]);
            used[j] = true;
            let pool = s1[depth + 1..].iter().copied().chain(
                s2.iter()
                    .zip(used.iter())
                    .filter(|(_, u)| !**u)
                    .map(|(&p, _)| p),
            );
            let bound = self.colour_bound(pool, s.level_unpaired);
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

/// The most splits of one exchange level made before the search gives up on the level.
const LEVEL_CAP: usize = 2_000_000;

/// The splits of `players` (in BSN order) into S1 of `p` players and S2 of the others, in
/// the order of the exchanges (D.2, D.3): first none, then by the fewest players exchanged,
/// the smallest difference of the BSN sums moved, the highest BSN moved from S1, the lowest
/// BSN moved from S2. Each S1 and S2 is in BSN order. Made one level (number of players
/// exchanged) at a time, as the search asks for them.
struct Exchanges<'a> {
    players: &'a [usize],
    p: usize,
    k: usize,
    level: std::vec::IntoIter<(Vec<usize>, Vec<usize>)>,
}

impl<'a> Exchanges<'a> {
    fn new(players: &'a [usize], p: usize) -> Self {
        Exchanges {
            players,
            p,
            k: 0,
            level: Vec::new().into_iter(),
        }
    }

    fn make_level(&self, k: usize) -> Option<Vec<(Vec<usize>, Vec<usize>)>> {
        let n = self.players.len();
        let p = self.p;
        if k > p.min(n - p) || binomial(p, k).saturating_mul(binomial(n - p, k)) > LEVEL_CAP {
            return None;
        }
        let s1: Vec<usize> = (0..p).collect();
        let s2: Vec<usize> = (p..n).collect();
        let mut level: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        let twos = combinations(&s2, k);
        for from1 in combinations(&s1, k) {
            for from2 in &twos {
                level.push((from1.clone(), from2.clone()));
            }
        }
        let diff = |x1: &[usize], x2: &[usize]| {
            x2.iter().sum::<usize>() as i64 - x1.iter().sum::<usize>() as i64
        };
        level.sort_by(|(a1, a2), (b1, b2)| {
            diff(a1, a2)
                .cmp(&diff(b1, b2))
                // the highest different BSN moved from S1 first
                .then_with(|| b1.iter().rev().cmp(a1.iter().rev()))
                // the lowest different BSN moved from S2 first
                .then_with(|| a2.cmp(b2))
        });
        Some(
            level
                .into_iter()
                .map(|(from1, from2)| {
                    let mut new1: Vec<usize> =
                        s1.iter().filter(|i| !from1.contains(i)).copied().collect();
                    new1.extend(&from2);
                    new1.sort_unstable();
                    let mut new2: Vec<usize> =
                        s2.iter().filter(|i| !from2.contains(i)).copied().collect();
                    new2.extend(&from1);
                    new2.sort_unstable();
                    (
                        new1.iter().map(|&i| self.players[i]).collect(),
                        new2.iter().map(|&i| self.players[i]).collect(),
                    )
                })
                .collect(),
        )
    }
}

impl Iterator for Exchanges<'_> {
    type Item = (Vec<usize>, Vec<usize>);

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(split) = self.level.next() {
                return Some(split);
            }
            let level = self.make_level(self.k)?;
            self.k += 1;
            self.level = level.into_iter();
        }
    }
}

fn binomial(n: usize, k: usize) -> usize {
    let mut r: usize = 1;
    for i in 0..k {
        r = r.saturating_mul(n - i) / (i + 1);
    }
    r
}

/// The `k`-element subsets of `items`, each in increasing order.
fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut current = Vec::with_capacity(k);
    fn go(
        items: &[usize],
        k: usize,
        from: usize,
        current: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in from..items.len() {
            if items.len() - i < k - current.len() {
                break;
            }
            current.push(items[i]);
            go(items, k, i + 1, current, out);
            current.pop();
        }
    }
    go(items, k, 0, &mut current, &mut out);
    out
}
