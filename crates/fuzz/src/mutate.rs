//! The mutator: structure-aware edits of a text input.
//!
//! An input is cut into pieces (a run of word characters, one delimiter, or a run of
//! spaces), so that edits keep or break the structure on purpose: a tag loses its `]`, a
//! move is repeated 40 times, a comment is spliced from another file, a digit run becomes
//! `4294967296`, a space becomes a no-break space.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Characters that matter to the readers, inserted and substituted at random.
const SPECIAL: &[&str] = &[
    "\u{a0}", "\u{2009}", "\u{200b}", "\u{feff}", "\u{3000}", "\r", "\n", "\r\n", "\t", "\"", "\\",
    "{", "}", "(", ")", "[", "]", ";", "%", "$", "!", "?", "*", ".", "…", ":", "-", "x", "/", ",",
    "#", "+", "=", "é", "ж", "漢", "🧊", "\u{0}", "\u{7f}", "\u{fffd}", "½",
];

/// Numbers at the edges of what the readers accept.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "9",
    "19",
    "20",
    "32",
    "33",
    "50",
    "99",
    "100",
    "255",
    "256",
    "999",
    "1000000",
    "4294967295",
    "4294967296",
    "18446744073709551616",
    "-1",
    "00",
    "007",
];

/// A seeded mutator.
pub struct Mutator {
    rng: ChaCha8Rng,
}

/// One piece of an input.
fn pieces(input: &str) -> Vec<String> {
    #[derive(PartialEq)]
    enum Class {
        Space,
        Word,
        Delimiter,
    }
    let class = |c: char| {
        if c.is_whitespace() {
            Class::Space
        } else if c.is_alphanumeric() || c == '_' || c == '=' || c == '#' || c == '+' {
            Class::Word
        } else {
            Class::Delimiter
        }
    };
    let mut out: Vec<String> = Vec::new();
    let mut last: Option<Class> = None;
    for c in input.chars() {
        let k = class(c);
        match (&last, &k) {
            (Some(Class::Space), Class::Space) | (Some(Class::Word), Class::Word) => {
                if let Some(p) = out.last_mut() {
                    p.push(c);
                }
            }
            _ => out.push(c.to_string()),
        }
        last = Some(k);
    }
    out
}

impl Mutator {
    /// A mutator whose choices follow `seed`.
    pub fn new(seed: u64) -> Mutator {
        Mutator {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// A number below `n` (0 for `n == 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            self.rng.random_range(0..n)
        }
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// The mutator's generator, for callers that draw their own choices.
    pub fn rng(&mut self) -> &mut ChaCha8Rng {
        &mut self.rng
    }

    /// One to four edits of `input`, drawing words from `dictionary` and pieces of
    /// `corpus` entries.
    pub fn mutate(&mut self, input: &str, dictionary: &[&str], corpus: &[String]) -> String {
        let mut p = pieces(input);
        let edits = 1 + self.below(4);
        for _ in 0..edits {
            self.edit(&mut p, dictionary, corpus);
        }
        p.concat()
    }

    fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
        list[self.below(list.len())]
    }

    fn edit(&mut self, p: &mut Vec<String>, dictionary: &[&str], corpus: &[String]) {
        let at = self.below(p.len() + 1);
        let i = self.below(p.len().max(1)).min(p.len().saturating_sub(1));
        match self.below(13) {
            0 if !p.is_empty() => {
                p.remove(i);
            }
            1 if !p.is_empty() => {
                let copy = p[i].clone();
                p.insert(i, copy);
            }
            2 if p.len() > 1 => {
                let j = self.below(p.len());
                p.swap(i, j);
            }
            3 | 4 if !dictionary.is_empty() => {
                let word = self.pick(dictionary).to_string();
                if self.one_in(2) && !p.is_empty() {
                    p[i] = word;
                } else {
                    p.insert(at, word);
                }
            }
            5 if !corpus.is_empty() => {
                let other = pieces(&corpus[self.below(corpus.len())]);
                if !other.is_empty() {
                    let start = self.below(other.len());
                    let len = 1 + self.below(20.min(other.len() - start));
                    for (k, piece) in other[start..start + len].iter().enumerate() {
                        p.insert((at + k).min(p.len()), piece.clone());
                    }
                }
            }
            6 if !p.is_empty() => {
                let piece: Vec<char> = p[i].chars().collect();
                let k = self.below(piece.len());
                let mut out: String = piece[..k].iter().collect();
                out.push_str(self.pick(SPECIAL));
                out.extend(piece.iter().skip(k + 1));
                p[i] = out;
            }
            7 if !p.is_empty() => {
                let len = 1 + self.below(8.min(p.len() - i));
                let run: Vec<String> = p[i..i + len].to_vec();
                let times = 1 + self.below(40);
                for _ in 0..times {
                    for (k, piece) in run.iter().enumerate() {
                        p.insert(i + k, piece.clone());
                    }
                }
            }
            8 => p.truncate(at),
            9 if !p.is_empty() => {
                if p[i].chars().any(|c| c.is_ascii_digit()) {
                    let number = self.pick(NUMBERS);
                    p[i] = p[i]
                        .split(|c: char| c.is_ascii_digit())
                        .filter(|s| !s.is_empty())
                        .collect::<Vec<_>>()
                        .join(number);
                    if p[i].is_empty() {
                        p[i] = number.to_string();
                    }
                } else {
                    p.insert(at, self.pick(NUMBERS).to_string());
                }
            }
            10 if !p.is_empty() => {
                p[i] = if self.one_in(2) {
                    p[i].to_uppercase()
                } else {
                    p[i].to_lowercase()
                };
            }
            11 => {
                let c = char::from_u32(self.rng.random_range(0..0x3_0000)).unwrap_or('\u{fffd}');
                p.insert(at, c.to_string());
            }
            _ => p.insert(at, self.pick(SPECIAL).to_string()),
        }
    }

    /// Byte edits for the decoder: flips, high bytes, truncation (which can split a UTF-8
    /// sequence).
    pub fn mutate_bytes(&mut self, bytes: &mut Vec<u8>) {
        for _ in 0..1 + self.below(4) {
            let at = self.below(bytes.len() + 1);
            match self.below(4) {
                0 if !bytes.is_empty() => {
                    let i = at.min(bytes.len() - 1);
                    bytes[i] ^= 1 << self.below(8);
                }
                1 => bytes.insert(at, 0x80 + self.below(0x80) as u8),
                2 => bytes.truncate(at),
                _ => bytes.splice(at..at, [0xef, 0xbb, 0xbf]).for_each(drop),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_keep_the_text() {
        let text = "[Event \"a b\"]\n1. e4 {c}\u{a0}e5 *";
        assert_eq!(pieces(text).concat(), text);
        assert!(pieces(text).contains(&"Event".to_string()));
    }

    #[test]
    fn mutation_is_deterministic_per_seed() {
        let corpus = vec!["1. e4 e5 *".to_string()];
        let a = Mutator::new(7).mutate("[A \"b\"] 1. c3-d4", &["x"], &corpus);
        let b = Mutator::new(7).mutate("[A \"b\"] 1. c3-d4", &["x"], &corpus);
        assert_eq!(a, b);
    }
}
