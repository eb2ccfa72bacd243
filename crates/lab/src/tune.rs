//! Evaluation tuning by Texel's method (P. Österlund, 2014): fit the weights of an
//! evaluation's terms so that `sigmoid(K * eval)` predicts the results of the games the
//! positions come from, by least squares.
//!
//! The evaluations are linear in their weights (`eval = Σ weight × count`,
//! `engine::eval::terms`), so each position is kept as its term counts and the error and
//! its gradient are sums over those. Steps: [`best_k`] fits the scale `K` with the current
//! weights (golden-section search), then [`fit`] runs Adam (Kingma and Ba, 2015) on the
//! weights with `K` fixed. A game's anchor term (a man, a pawn: 100) stays fixed so that the
//! scores keep their unit, which the search's margins are set in.
//!
//! The data come from self-play ([`crate::datagen`]): one line per position,
//! `<position text>;<result>` with the result from White's side (`1`, `0.5`, `0`).

use std::fmt::Write as _;

use antarctos::Antarctos;
use engine::EngineVariant;
use engine::eval::terms::Trace;
use game::Color;
use iceage::IceAge;

/// A game whose evaluation can be tuned.
pub trait Tunable: EngineVariant {
    /// The terms' names, in weight order.
    const TERM_NAMES: &'static [&'static str];
    /// Terms whose weights stay as they are (the unit).
    const FIXED: &'static [usize];
    /// Where the weights live in the repository, from its root.
    const WEIGHTS_FILE: &'static str;
    /// The weights the engine plays with now.
    fn weights() -> Vec<i32>;
    /// The hand-set weights of before tuning.
    fn hand_weights() -> Vec<i32>;
    /// The term counts of `pos` from the side to move.
    fn trace(pos: &Self::Position) -> Vec<f64>;
}

impl Tunable for Antarctos {
    const TERM_NAMES: &'static [&'static str] = &engine::eval::antarctos::TERM_NAMES;
    const FIXED: &'static [usize] = &[engine::eval::antarctos::MAN];
    const WEIGHTS_FILE: &'static str = "crates/engine/src/eval/antarctos_weights.rs";
    fn weights() -> Vec<i32> {
        engine::eval::antarctos::WEIGHTS.to_vec()
    }
    fn hand_weights() -> Vec<i32> {
        engine::eval::antarctos::HAND_WEIGHTS.to_vec()
    }
    fn trace(pos: &antarctos::Position) -> Vec<f64> {
        let mut t = Trace::new(engine::eval::antarctos::TERM_COUNT);
        engine::eval::antarctos::terms(pos, &mut t);
        t.counts
    }
}

impl Tunable for IceAge {
    const TERM_NAMES: &'static [&'static str] = &engine::eval::iceage::TERM_NAMES;
    const FIXED: &'static [usize] = &[engine::eval::iceage::MATERIAL];
    const WEIGHTS_FILE: &'static str = "crates/engine/src/eval/iceage_weights.rs";
    fn weights() -> Vec<i32> {
        engine::eval::iceage::WEIGHTS.to_vec()
    }
    fn hand_weights() -> Vec<i32> {
        engine::eval::iceage::HAND_WEIGHTS.to_vec()
    }
    fn trace(pos: &iceage::Position) -> Vec<f64> {
        let mut t = Trace::new(engine::eval::iceage::TERM_COUNT);
        engine::eval::iceage::terms(pos, &mut t);
        t.counts
    }
}

/// What was wrong with a data file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// A line that is not `<position>;<result>`.
    #[error("line {line}: expected '<position text>;<result>' with result 1, 0.5 or 0")]
    Malformed {
        /// 1-based line number.
        line: usize,
    },
    /// A position that does not read.
    #[error("line {line}: {message}")]
    Position {
        /// 1-based line number.
        line: usize,
        /// The reader's message.
        message: String,
    },
    /// No position at all.
    #[error("no positions in the data")]
    Empty,
}

/// Positions as term counts with their results, from the side to move.
#[derive(Debug, Clone, Default)]
pub struct Dataset {
    /// Term counts, `terms` per position, row after row.
    pub counts: Vec<f32>,
    /// Results from the side to move: 1 win, 0.5 draw, 0 loss.
    pub results: Vec<f32>,
    /// Terms per position.
    pub terms: usize,
}

impl Dataset {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.results.len()
    }

    /// True when there is no position.
    pub fn is_empty(&self) -> bool {
        self.results.is_empty()
    }

    fn row(&self, i: usize) -> &[f32] {
        &self.counts[i * self.terms..(i + 1) * self.terms]
    }
}

/// Reads a data file of game `V` (see the module doc).
pub fn read_data<V: Tunable>(text: &str) -> Result<Dataset, DataError> {
    let mut data = Dataset {
        terms: V::TERM_NAMES.len(),
        ..Dataset::default()
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let malformed = DataError::Malformed { line: i + 1 };
        let (fen, result) = line.rsplit_once(';').ok_or(malformed.clone())?;
        let white: f32 = match result.trim() {
            "1" => 1.0,
            "0.5" => 0.5,
            "0" => 0.0,
            _ => return Err(malformed),
        };
        let pos = V::parse_position(fen.trim()).map_err(|e| DataError::Position {
            line: i + 1,
            message: e.to_string(),
        })?;
        let stm = if V::side_to_move(&pos) == Color::White {
            white
        } else {
            1.0 - white
        };
        data.counts
            .extend(V::trace(&pos).into_iter().map(|c| c as f32));
        data.results.push(stm);
    }
    if data.is_empty() {
        return Err(DataError::Empty);
    }
    Ok(data)
}

/// `1 / (1 + 10^(-k * score / 400))`: the expected result of a score (`k` scales centi-units
/// to the Elo-like unit of the logistic).
pub fn sigmoid(k: f64, score: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * score / 400.0))
}

fn score(row: &[f32], weights: &[f64]) -> f64 {
    row.iter()
        .zip(weights)
        .map(|(c, w)| f64::from(*c) * w)
        .sum()
}

/// Mean squared error of the predictions of `weights` with scale `k`.
pub fn error(data: &Dataset, weights: &[f64], k: f64) -> f64 {
    let total: f64 = (0..data.len())
        .map(|i| {
            let p = sigmoid(k, score(data.row(i), weights));
            let r = f64::from(data.results[i]);
            (r - p) * (r - p)
        })
        .sum();
    total / data.len() as f64
}

/// The `K` that minimises [`error`] for `weights`, by golden-section search on 0.05..5.
pub fn best_k(data: &Dataset, weights: &[f64]) -> f64 {
    let (mut a, mut b) = (0.05f64, 5.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(data, weights, c) < error(data, weights, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// The outcome of a fit.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    /// The scale used.
    pub k: f64,
    /// Error of the starting weights.
    pub error_before: f64,
    /// Error of the fitted weights (before rounding).
    pub error_after: f64,
    /// Error of the rounded weights.
    pub error_rounded: f64,
    /// The fitted weights, rounded.
    pub weights: Vec<i32>,
}

/// A `--hold` name that matches no term.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{name}' names no term of the {game} evaluation (terms: {known})")]
pub struct UnknownTerm {
    /// The name as given.
    pub name: String,
    /// The game's title.
    pub game: &'static str,
    /// The game's term names, comma-separated.
    pub known: String,
}

/// The indices of the terms `names` (comma-separated) hold, in order: an item that is a
/// term's whole name holds that term alone (`knight`, not `knight mobility`); any other item
/// holds every term whose name begins with its words (`advance` holds `advance 1` to
/// `advance 6`, `pawn rank` the six `pawn rank` terms). An item may repeat or overlap
/// another; empty items are skipped, but at least one term must be named.
pub fn held_terms<V: Tunable>(names: &str) -> Result<Vec<usize>, UnknownTerm> {
    let mut held = Vec::new();
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let matched: Vec<usize> = match V::TERM_NAMES.iter().position(|t| *t == name) {
            Some(i) => vec![i],
            None => (0..V::TERM_NAMES.len())
                .filter(|&i| {
                    V::TERM_NAMES[i]
                        .strip_prefix(name)
                        .is_some_and(|rest| rest.starts_with(' '))
                })
                .collect(),
        };
        if matched.is_empty() {
            return Err(UnknownTerm {
                name: name.to_string(),
                game: V::TITLE,
                known: V::TERM_NAMES.join(", "),
            });
        }
        held.extend(matched);
    }
    if held.is_empty() {
        return Err(UnknownTerm {
            name: names.to_string(),
            game: V::TITLE,
            known: V::TERM_NAMES.join(", "),
        });
    }
    held.sort_unstable();
    held.dedup();
    Ok(held)
}

/// Fits the weights of game `V` to `data` from `start` (`epochs` full-batch Adam steps of
/// size `rate` centi-units; terms in `V::FIXED` and in `held` keep their start values).
/// `progress(epoch, error)` is called every 100 epochs.
pub fn fit<V: Tunable>(
    data: &Dataset,
    start: &[i32],
    held: &[usize],
    epochs: u32,
    rate: f64,
    mut progress: impl FnMut(u32, f64),
) -> Fit {
    let mut w: Vec<f64> = start.iter().map(|&x| f64::from(x)).collect();
    let k = best_k(data, &w);
    let error_before = error(data, &w, k);
    let n = data.terms;
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8f64);
    let mut m = vec![0.0; n];
    let mut v = vec![0.0; n];
    let scale = k * std::f64::consts::LN_10 / 400.0;
    for epoch in 1..=epochs {
        let mut grad = vec![0.0; n];
        for i in 0..data.len() {
            let row = data.row(i);
            let p = sigmoid(k, score(row, &w));
            let r = f64::from(data.results[i]);
            // d/dw (r - p)^2 = -2 (r - p) p (1 - p) * scale * count
            let g = -2.0 * (r - p) * p * (1.0 - p) * scale;
            for (gj, c) in grad.iter_mut().zip(row) {
                *gj += g * f64::from(*c);
            }
        }
        for j in 0..n {
            if V::FIXED.contains(&j) || held.contains(&j) {
                continue;
            }
            let gj = grad[j] / data.len() as f64;
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            let mh = m[j] / (1.0 - b1.powi(epoch as i32));
            let vh = v[j] / (1.0 - b2.powi(epoch as i32));
            w[j] -= rate * mh / (vh.sqrt() + eps);
        }
        if epoch % 100 == 0 {
            progress(epoch, error(data, &w, k));
        }
    }
    let error_after = error(data, &w, k);
    let weights: Vec<i32> = w.iter().map(|x| x.round() as i32).collect();
    let rounded: Vec<f64> = weights.iter().map(|&x| f64::from(x)).collect();
    Fit {
        k,
        error_before,
        error_after,
        error_rounded: error(data, &rounded, k),
        weights,
    }
}

/// The weights file of game `V` for `weights` (what `icebound tune --write` writes), with
/// the command that made it and the weights it started from (`start`, a phrase) in its
/// header.
pub fn weights_file<V: Tunable>(weights: &[i32], command: &str, start: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "//! The weights of the {} evaluation's terms, in the order of",
        V::TITLE
    );
    let _ = writeln!(
        s,
        "//! `eval::{}::TERM_NAMES`. Written by `icebound tune` (docs/strength.md, \"Tuned",
        V::NAME
    );
    let _ = writeln!(s, "//! evaluation\"); rerun it rather than edit by hand:");
    let _ = writeln!(s, "//! `{command}`");
    let _ = writeln!(s, "//! (the fit started from {start}).");
    let _ = writeln!(s);
    let _ = writeln!(s, "/// One weight per term, by name:");
    for (name, w) in V::TERM_NAMES.iter().zip(weights) {
        let _ = writeln!(s, "/// - {name}: {w}");
    }
    let _ = writeln!(s, "pub const WEIGHTS: [i32; {}] = [", weights.len());
    // Packed into lines of at most 100 characters, as rustfmt lays out short items.
    let mut line = String::from("   ");
    for w in weights {
        let item = format!(" {w},");
        if line.len() + item.len() > 100 {
            let _ = writeln!(s, "{line}");
            line = String::from("   ");
        }
        line.push_str(&item);
    }
    let _ = writeln!(s, "{line}");
    let _ = writeln!(s, "];");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use game::Variant;

    #[test]
    fn traces_times_weights_are_the_evaluation() {
        let pos = IceAge::start_position();
        let t = IceAge::trace(&pos);
        let w: Vec<f64> = IceAge::weights().iter().map(|&x| f64::from(x)).collect();
        let s: f64 = t.iter().zip(&w).map(|(c, w)| c * w).sum();
        assert_eq!(s.round() as i32, IceAge::evaluate(&pos));
        let pos = Antarctos::parse_position("W:Wb4,e3,f2:Bc7,d6:Ic3").expect("valid");
        let t = Antarctos::trace(&pos);
        let w: Vec<f64> = Antarctos::weights().iter().map(|&x| f64::from(x)).collect();
        let s: f64 = t.iter().zip(&w).map(|(c, w)| c * w).sum();
        assert_eq!(s.round() as i32, Antarctos::evaluate(&pos));
    }

    #[test]
    fn data_lines_read_and_errors_name_the_line() {
        let text = "W:Wb4,e3,f2:Bc7,d6:Ic3;1\n# comment\nB:Wb4,e3,f2:Bc7,d6:Ic3;0.5\n";
        let d = read_data::<Antarctos>(text).expect("reads");
        assert_eq!(d.len(), 2);
        // White won: the White-to-move position scores 1, the other a draw either way.
        assert_eq!(d.results, vec![1.0, 0.5]);
        assert_eq!(
            read_data::<Antarctos>("W:Wb4;2").unwrap_err(),
            DataError::Malformed { line: 1 }
        );
        assert!(matches!(
            read_data::<Antarctos>("X:Wb4;1"),
            Err(DataError::Position { line: 1, .. })
        ));
        assert!(matches!(
            read_data::<Antarctos>("\n"),
            Err(DataError::Empty)
        ));
    }

    #[test]
    fn fit_moves_a_weight_towards_what_the_results_say() {
        // Positions where White has one more man than Black and an advanced man, and
        // where the advanced side always wins: the advance weights must grow, the man's
        // weight (fixed) must not move, and the error must fall.
        let mut text = String::new();
        for (fen, result) in [
            ("W:Wd6,a1:Bh8,g7", "1"),
            ("B:Wd6,a1:Bh8,g7", "1"),
            ("W:Wc5,a1:Bh8,g7", "1"),
            ("B:Wa1,c1:Bd4,h8", "0"),
            ("W:Wa1,c1:Be3,h8", "0"),
            ("W:Wa1,c1:Bh8,g7", "0.5"),
        ] {
            text.push_str(&format!("{fen};{result}\n"));
        }
        let data = read_data::<Antarctos>(&text).expect("reads");
        let start = Antarctos::hand_weights();
        let f = fit::<Antarctos>(&data, &start, &[], 300, 2.0, |_, _| {});
        assert!(f.error_after < f.error_before, "{f:?}");
        assert_eq!(f.weights[engine::eval::antarctos::MAN], start[0]);
        // d6 and c5 are 5 and 4 rows up.
        assert!(f.weights[5] > start[5] && f.weights[4] > start[4], "{f:?}");
        // Held terms keep their start values; the others still move.
        let held = held_terms::<Antarctos>("advance, home guard").expect("known terms");
        assert_eq!(held, (1..=7).collect::<Vec<_>>());
        let g = fit::<Antarctos>(&data, &start, &held, 300, 2.0, |_, _| {});
        assert_eq!(g.weights[..8], start[..8], "{g:?}");
        assert_ne!(g.weights, start, "{g:?}");
    }

    #[test]
    fn held_names_are_whole_names_or_first_words() {
        assert_eq!(held_terms::<Antarctos>("advance 3"), Ok(vec![3]));
        assert_eq!(held_terms::<Antarctos>("race, tempo"), Ok(vec![12, 13, 14]));
        assert!(held_terms::<Antarctos>(" , ").is_err());
        assert!(held_terms::<Antarctos>("").is_err());
        let e = held_terms::<Antarctos>("advance 9").unwrap_err();
        assert_eq!(e.name, "advance 9");
        assert!(
            e.to_string()
                .contains("names no term of the Antarctos evaluation"),
            "{e}"
        );
        // Repeats and overlaps are fine.
        assert_eq!(
            held_terms::<Antarctos>("advance,advance 2, advance"),
            Ok((1..=6).collect())
        );
        assert_eq!(
            held_terms::<Antarctos>("race won,race alone,race"),
            Ok(vec![12, 13])
        );
        // A whole name holds that term alone, not the terms it begins.
        let knight = IceAge::TERM_NAMES.iter().position(|t| *t == "knight");
        assert_eq!(
            held_terms::<IceAge>("knight"),
            Ok(vec![knight.expect("a term")])
        );
        let knights: Vec<usize> = (0..IceAge::TERM_NAMES.len())
            .filter(|&i| IceAge::TERM_NAMES[i].starts_with("knight"))
            .collect();
        assert!(knights.len() > 1, "{knights:?}");
        // Words that begin names hold the group, even when the first word is a term.
        let ranks: Vec<usize> = (0..IceAge::TERM_NAMES.len())
            .filter(|&i| IceAge::TERM_NAMES[i].starts_with("pawn rank "))
            .collect();
        assert_eq!(ranks.len(), 6);
        assert_eq!(held_terms::<IceAge>("pawn rank"), Ok(ranks));
        assert!(held_terms::<Antarctos>("advanc").is_err());
    }

    #[test]
    fn weights_file_is_rust_with_every_weight() {
        let w = Antarctos::hand_weights();
        let s = weights_file::<Antarctos>(&w, "icebound tune --variant antarctos", "the hand");
        assert!(s.contains("//! (the fit started from the hand)."), "{s}");
        assert!(s.contains("pub const WEIGHTS: [i32; 18] = ["));
        assert!(s.contains("/// - runner: 120"));
        let (_, list) = s.split_once("= [").expect("the array");
        let (list, _) = list.split_once("];").expect("its end");
        let back: Vec<i32> = list
            .split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().expect("a number"))
            .collect();
        assert_eq!(back, w.to_vec());
        assert!(s.lines().all(|l| l.len() <= 100), "{s}");
    }
}
