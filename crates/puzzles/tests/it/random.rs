//! Small random Antarctos positions (2-4 men a side, up to 3 ice), the same every run.

use antarctos::Antarctos;
use game::Variant;

/// xorshift64: a fixed sequence, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.max(1))
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// `count` valid positions (texts that do not parse are skipped).
pub fn positions(seed: u64, count: usize) -> Vec<antarctos::Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut taken = std::collections::HashSet::new();
        let mut pick = |n: u64, ranks: std::ops::Range<u64>, rng: &mut Rng| -> Vec<String> {
            let mut v = Vec::new();
            while (v.len() as u64) < n {
                let r = ranks.start + rng.below(ranks.end - ranks.start);
                let f = rng.below(4) * 2 + r % 2;
                if taken.insert((f, r)) {
                    v.push(format!("{}{}", (b'a' + f as u8) as char, r + 1));
                }
            }
            v
        };
        let (nw, nb, ni) = (2 + rng.below(3), 2 + rng.below(3), rng.below(4));
        let w = pick(nw, 1..6, &mut rng);
        let b = pick(nb, 2..7, &mut rng);
        let ice = pick(ni, 1..7, &mut rng);
        let side = if rng.below(2) == 0 { "W" } else { "B" };
        let mut text = format!("{side}:W{}:B{}", w.join(","), b.join(","));
        if !ice.is_empty() {
            text.push_str(&format!(":I{}", ice.join(",")));
        }
        if let Ok(pos) = Antarctos::parse_position(&text) {
            out.push(pos);
        }
    }
    out
}
