//! Seeds of lab runs: one run seed gives every game (or pair) its own seed, so that a game's
//! moves depend only on the run seed, its index and the settings, never on the thread count.

/// splitmix64 (S. Vigna): a bijective 64-bit mixer, used to derive independent seeds.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The seed of game (or pair) `index` of a run with seed `seed`.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix64(splitmix64(seed) ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_per_game_and_reproduce() {
        let a: Vec<u64> = (0..100).map(|i| game_seed(1, i)).collect();
        let b: Vec<u64> = (0..100).map(|i| game_seed(1, i)).collect();
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 100);
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
    }
}
