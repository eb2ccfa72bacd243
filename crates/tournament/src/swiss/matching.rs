//! Maximum-cardinality matching in a general graph (Edmonds' blossom algorithm, O(n³)):
//! the Dutch system's completion test (C.4) and its count of possible pairs (C.5, C.7).

const NONE: usize = usize::MAX;

/// A maximum matching of the graph with `n` vertices and the adjacency lists `adj`:
/// `mate[v]` is `v`'s partner or `None`.
pub fn maximum_matching(n: usize, adj: &[Vec<usize>]) -> Vec<Option<usize>> {
    let mut m = Matcher {
        n,
        adj,
        mate: vec![NONE; n],
        parent: vec![NONE; n],
        base: (0..n).collect(),
        used: vec![false; n],
        blossom: vec![false; n],
        queue: Vec::with_capacity(n),
    };
    // A greedy start makes the augmenting searches few.
    for (v, neighbours) in adj.iter().enumerate().take(n) {
        if m.mate[v] == NONE
            && let Some(&w) = neighbours.iter().find(|&&w| m.mate[w] == NONE && w != v)
        {
            m.mate[v] = w;
            m.mate[w] = v;
        }
    }
    for root in 0..n {
        if m.mate[root] == NONE {
            let mut v = m.find_path(root);
            while v != NONE {
                let pv = m.parent[v];
                let ppv = m.mate[pv];
                m.mate[v] = pv;
                m.mate[pv] = v;
                v = ppv;
            }
        }
    }
    m.mate
        .into_iter()
        .map(|w| (w != NONE).then_some(w))
        .collect()
}

/// The size of a maximum matching (its number of pairs).
pub fn matching_size(n: usize, adj: &[Vec<usize>]) -> usize {
    maximum_matching(n, adj)
        .iter()
        .filter(|m| m.is_some())
        .count()
        / 2
}

struct Matcher<'a> {
    n: usize,
    adj: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    used: Vec<bool>,
    blossom: Vec<bool>,
    queue: Vec<usize>,
}

impl Matcher<'_> {
    fn lca(&self, mut a: usize, mut b: usize) -> usize {
        let mut seen = vec![false; self.n];
        loop {
            a = self.base[a];
            seen[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if seen[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    fn mark_path(&mut self, mut v: usize, b: usize, mut child: usize) {
        while self.base[v] != b {
            self.blossom[self.base[v]] = true;
            self.blossom[self.base[self.mate[v]]] = true;
            self.parent[v] = child;
            child = self.mate[v];
            v = self.parent[self.mate[v]];
        }
    }

    fn find_path(&mut self, root: usize) -> usize {
        self.used.fill(false);
        self.parent.fill(NONE);
        for i in 0..self.n {
            self.base[i] = i;
        }
        self.used[root] = true;
        self.queue.clear();
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for &to in &self.adj[v] {
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    let current = self.lca(v, to);
                    self.blossom.fill(false);
                    self.mark_path(v, current, to);
                    self.mark_path(to, current, v);
                    for i in 0..self.n {
                        if self.blossom[self.base[i]] {
                            self.base[i] = current;
                            if !self.used[i] {
                                self.used[i] = true;
                                self.queue.push(i);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return to;
                    }
                    let m = self.mate[to];
                    self.used[m] = true;
                    self.queue.push(m);
                }
            }
        }
        NONE
    }
}
