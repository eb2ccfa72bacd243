//! The order of the exchanges between S1 and S2 (C.04.3 D.2) or S1 and the Limbo (D.3).

/// The most splits of one exchange level made before the search gives up on the level.
const LEVEL_CAP: usize = 2_000_000;

/// The splits of `players` (in BSN order) into S1 of `p` players and S2 of the others, in
/// the order of the exchanges (D.2, D.3): first none, then by the fewest players exchanged,
/// the smallest difference of the BSN sums moved, the highest BSN moved from S1, the lowest
/// BSN moved from S2. Each S1 and S2 is in BSN order. Made one level (number of players
/// exchanged) at a time, as the search asks for them.
pub(super) struct Exchanges<'a> {
    players: &'a [usize],
    p: usize,
    k: usize,
    level: std::vec::IntoIter<(Vec<usize>, Vec<usize>)>,
}

impl<'a> Exchanges<'a> {
    pub(super) fn new(players: &'a [usize], p: usize) -> Self {
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
pub(super) fn combinations(items: &[usize], k: usize) -> Vec<Vec<usize>> {
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
