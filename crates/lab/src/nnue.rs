//! Data and training for the learned evaluation (issue 43, `engine::nnue`).
//!
//! - [`generate`]: self-play games at a node limit from random openings; every position
//!   that is quiet (as [`crate::datagen`] keeps them: past `skip` plies, not in check, may
//!   stand pat, the move played from it not tactical) and whose search score is not a
//!   proven win or loss is written as `<position text>;<result>;<score>`, the result from
//!   White's side (`1`, `0.5`, `0`), the score the search's (centi-units) from White's
//!   side. Games cut by the ply cap give nothing. With [`DataOptions::label_depth`] the
//!   score is instead that of a separate fixed-depth search of the hand-written evaluation
//!   (depth 1 is one ply and quiescence): the games can then be played at a small node
//!   limit, fast, and the labels are a distillation of the hand-written evaluation.
//! - [`probe`]: a network's evaluation beside the hand-written one on given positions
//!   (a check that the network has learnt material).
//! - [`train`]: fits a float network of the engine's shape to those lines with Adam on the
//!   mean squared error between `sigmoid(out)` and the blended target
//!   `lambda * sigmoid(score / scale) + (1 - lambda) * result` (both from the side to move),
//!   then quantises it to the engine's integer format (`engine::nnue::Network`).

use engine::nnue::{self, GameId, NnueGame, QA, QB};
use engine::{EngineVariant, Limits, SearchOptions, Searcher};
use game::Color;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::games::random_opening;

/// How to make data.
#[derive(Debug, Clone)]
pub struct DataOptions {
    /// Games to play.
    pub games: u32,
    /// Node limit per move.
    pub nodes: u64,
    /// Random plies at the start of each game.
    pub random_plies: u32,
    /// Positions before this ply are not kept.
    pub skip: u32,
    /// Seed of the random openings.
    pub seed: u64,
    /// Ply cap.
    pub max_plies: u32,
    /// Label each kept position with a search of this depth (hand-written evaluation,
    /// fresh table per position) instead of the self-play search's score; `None`: the
    /// self-play score.
    pub label_depth: Option<u32>,
}

/// The score (centi-units, side to move) of a `depth`-ply search of `pos` with a cleared
/// table: the label of [`DataOptions::label_depth`].
pub fn label<V: EngineVariant>(searcher: &mut Searcher<V>, pos: &V::Position, depth: u32) -> i32 {
    searcher.clear();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher.search(pos, &limits, |_| {}).score
}

/// The data lines of one self-play game (see the module doc).
pub fn game_lines<V: EngineVariant>(opts: &DataOptions, index: u32) -> Vec<String> {
    let start = V::start_position();
    let (opening, mut pos) = random_opening::<V>(
        &start,
        opts.random_plies,
        opts.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ u64::from(index),
    );
    let mut searcher = Searcher::<V>::new(16);
    searcher.set_options(V::OPTIONS);
    let limits = Limits {
        nodes: Some(opts.nodes),
        ..Limits::default()
    };
    let mut labeller = opts.label_depth.map(|_| {
        let mut s = Searcher::<V>::new(1);
        s.set_options(V::OPTIONS);
        s
    });
    let mut kept = Vec::new();
    let mut ply = opening.len() as u32;
    let mut moves = Vec::new();
    let result = loop {
        if let Some(outcome) = V::outcome(&pos) {
            break match outcome.winner() {
                Some(Color::White) => "1",
                Some(Color::Black) => "0",
                None => "0.5",
            };
        }
        if ply >= opts.max_plies {
            return Vec::new();
        }
        let r = searcher.search(&pos, &limits, |_| {});
        let Some(mv) = r.best else {
            return Vec::new();
        };
        if ply >= opts.skip && !V::in_check(&pos) && !V::is_tactical(&pos, &mv) {
            V::legal_moves_into(&pos, &mut moves);
            let score = match (&mut labeller, opts.label_depth) {
                (Some(l), Some(depth)) => label::<V>(l, &pos, depth),
                _ => r.score,
            };
            if V::may_stand_pat(&pos, &moves)
                && !engine::score::is_decisive(r.score)
                && !engine::score::is_decisive(score)
            {
                let white = if V::side_to_move(&pos) == Color::White {
                    score
                } else {
                    -score
                };
                kept.push((V::position_text(&pos), white));
            }
        }
        pos = V::play_unchecked(&pos, &mv);
        ply += 1;
    };
    kept.into_iter()
        .map(|(text, score)| format!("{text};{result};{score}"))
        .collect()
}

/// Plays `opts.games` games on `threads` threads and returns their lines, calling
/// `progress` after each game.
pub fn generate<V: EngineVariant>(
    opts: &DataOptions,
    threads: usize,
    progress: impl Fn(u32, usize) + Sync,
) -> Vec<String> {
    let next = std::sync::atomic::AtomicU32::new(0);
    let out = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= opts.games {
                        break;
                    }
                    let lines = game_lines::<V>(opts, i);
                    let mut o = out.lock().expect("no panics while held");
                    o.push((i, lines));
                    let total = o.iter().map(|(_, l)| l.len()).sum();
                    progress(o.len() as u32, total);
                }
            });
        }
    });
    let mut games = out.into_inner().expect("no panics while held");
    games.sort_by_key(|(i, _)| *i);
    games.into_iter().flat_map(|(_, l)| l).collect()
}

/// One training position: the active features of both views, the side to move, the
/// target.
struct Sample {
    white: Vec<u16>,
    black: Vec<u16>,
    stm: usize,
    target: f32,
}

/// Training settings.
#[derive(Debug, Clone)]
pub struct TrainOptions {
    /// Hidden neurons.
    pub hidden: usize,
    /// Passes over the data.
    pub epochs: u32,
    /// Adam's learning rate.
    pub rate: f32,
    /// Weight of the search score in the target (the rest is the game result).
    pub lambda: f32,
    /// Centi-units per unit of the output (the sigmoid's scale).
    pub scale: i32,
    /// Positions per step.
    pub batch: usize,
    /// Seed of the initial weights and of the shuffles.
    pub seed: u64,
    /// One position in this many is held out for validation.
    pub holdout: usize,
}

/// What a training run reports.
#[derive(Debug, Clone)]
pub struct TrainReport {
    /// Training positions.
    pub train: usize,
    /// Validation positions.
    pub validation: usize,
    /// Validation loss (mean squared error) of the float network before training and
    /// after each epoch.
    pub losses: Vec<f64>,
    /// Validation loss of the quantised network.
    pub quantised_loss: f64,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Reads data lines (see the module doc) into samples.
fn read<V: EngineVariant + NnueGame<Pos = <V as game::Variant>::Position>>(
    text: &str,
    lambda: f32,
    scale: f32,
) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || format!("line {}: expected <position>;<result>;<score>", i + 1);
        let mut parts = line.rsplitn(3, ';');
        let score: f32 = parts
            .next()
            .and_then(|s| s.trim().parse().ok())
            .ok_or_else(bad)?;
        let result: f32 = parts
            .next()
            .and_then(|s| s.trim().parse().ok())
            .ok_or_else(bad)?;
        let text = parts.next().ok_or_else(bad)?;
        let pos = V::parse_position(text.trim()).map_err(|e| format!("line {}: {e}", i + 1))?;
        let stm = <V as NnueGame>::side_to_move(&pos);
        let (score, result) = if stm == 0 {
            (score, result)
        } else {
            (-score, 1.0 - result)
        };
        let planes = V::planes(&pos);
        let mut white = Vec::new();
        let mut black = Vec::new();
        for (p, &plane) in planes.iter().enumerate().take(V::PLANES) {
            let mut bits = plane;
            while bits != 0 {
                let b = bits.trailing_zeros();
                bits &= bits - 1;
                white.push(V::feature(0, p, b) as u16);
                black.push(V::feature(1, p, b) as u16);
            }
        }
        out.push(Sample {
            white,
            black,
            stm,
            target: lambda * sigmoid(score / scale) + (1.0 - lambda) * result,
        });
    }
    Ok(out)
}

/// The float network.
struct Float {
    inputs: usize,
    hidden: usize,
    /// `inputs × hidden`, then `hidden` biases, then `2 × hidden` output weights, then
    /// the output bias.
    w: Vec<f32>,
}

/// Largest float weight: `1.98 * QA` fits an i16 accumulator sum of ~60 features and
/// `1.98 * QB` an i8.
const CLIP: f32 = 1.98;

impl Float {
    fn b1(&self) -> usize {
        self.inputs * self.hidden
    }
    fn w2(&self) -> usize {
        self.b1() + self.hidden
    }
    fn b2(&self) -> usize {
        self.w2() + 2 * self.hidden
    }

    /// Accumulators of both views, and the output.
    fn forward(&self, s: &Sample, acc: &mut [f32]) -> f32 {
        let h = self.hidden;
        let (a0, a1) = acc.split_at_mut(h);
        a0.copy_from_slice(&self.w[self.b1()..self.b1() + h]);
        a1.copy_from_slice(&self.w[self.b1()..self.b1() + h]);
        for (feats, a) in [(&s.white, &mut *a0), (&s.black, &mut *a1)] {
            for &f in feats.iter() {
                let col = &self.w[f as usize * h..(f as usize + 1) * h];
                a.iter_mut().zip(col).for_each(|(x, w)| *x += w);
            }
        }
        let (us, them) = if s.stm == 0 {
            (&*a0, &*a1)
        } else {
            (&*a1, &*a0)
        };
        let w2 = &self.w[self.w2()..self.b2()];
        let mut out = self.w[self.b2()];
        for (i, &a) in us.iter().chain(them.iter()).enumerate() {
            out += a.clamp(0.0, 1.0) * w2[i];
        }
        out
    }

    fn loss(&self, data: &[Sample]) -> f64 {
        let mut acc = vec![0.0; 2 * self.hidden];
        let total: f64 = data
            .iter()
            .map(|s| {
                let d = sigmoid(self.forward(s, &mut acc)) - s.target;
                f64::from(d * d)
            })
            .sum();
        total / data.len().max(1) as f64
    }

    fn quantise(&self, game: GameId, scale: i32) -> nnue::Network {
        let q = |x: f32, f: i32| (x * f as f32).round();
        let h = self.hidden;
        nnue::Network {
            game,
            inputs: self.inputs,
            hidden: h,
            scale,
            ft_weights: self.w[..self.b1()]
                .iter()
                .map(|&x| q(x, QA) as i16)
                .collect(),
            ft_bias: self.w[self.b1()..self.w2()]
                .iter()
                .map(|&x| q(x, QA) as i16)
                .collect(),
            out_weights: self.w[self.w2()..self.b2()]
                .iter()
                .map(|&x| q(x, QB).clamp(-127.0, 127.0) as i8)
                .collect(),
            out_bias: q(self.w[self.b2()], QA * QB) as i32,
        }
    }
}

/// Trains a network of game `V` on data `text`; `progress` is called after each epoch
/// with its number and validation loss.
///
/// # Errors
/// A malformed line, or no data.
pub fn train<V: EngineVariant + NnueGame<Pos = <V as game::Variant>::Position>>(
    text: &str,
    opts: &TrainOptions,
    mut progress: impl FnMut(u32, f64),
) -> Result<(nnue::Network, TrainReport), String> {
    let mut all = read::<V>(text, opts.lambda, opts.scale as f32)?;
    if all.len() < 2 {
        return Err("fewer than 2 positions in the data".into());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    // Shuffle, then hold one position in `holdout` out.
    for i in (1..all.len()).rev() {
        all.swap(i, rng.random_range(0..=i));
    }
    let holdout = opts.holdout.max(2);
    let n_val = (all.len() / holdout).max(1);
    let val: Vec<Sample> = all.drain(..n_val).collect();
    let mut data = all;
    let (inputs, h) = (V::INPUTS, opts.hidden);
    let mut net = Float {
        inputs,
        hidden: h,
        w: Vec::new(),
    };
    let n = net.b2() + 1;
    net.w = (0..n).map(|_| rng.random_range(-0.1..0.1)).collect();
    let (b1, w2, b2) = (net.b1(), net.w2(), net.b2());
    net.w[b1..w2].iter_mut().for_each(|x| *x = 0.2);
    net.w[b2] = 0.0;
    let mut report = TrainReport {
        train: data.len(),
        validation: val.len(),
        losses: vec![net.loss(&val)],
        quantised_loss: 0.0,
    };
    let mut m = vec![0.0f32; n];
    let mut v = vec![0.0f32; n];
    let mut grad = vec![0.0f32; n];
    let mut acc = vec![0.0f32; 2 * h];
    let mut da = vec![0.0f32; 2 * h];
    let (beta1, beta2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let mut step = 0i32;
    for epoch in 1..=opts.epochs {
        for i in (1..data.len()).rev() {
            data.swap(i, rng.random_range(0..=i));
        }
        for batch in data.chunks(opts.batch.max(1)) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for s in batch {
                let out = net.forward(s, &mut acc);
                let p = sigmoid(out);
                let dout = 2.0 * (p - s.target) * p * (1.0 - p);
                let (us_off, them_off) = if s.stm == 0 { (0, h) } else { (h, 0) };
                grad[b2] += dout;
                for i in 0..h {
                    for (k, off) in [(i, us_off + i), (h + i, them_off + i)] {
                        let a = acc[off];
                        grad[w2 + k] += dout * a.clamp(0.0, 1.0);
                        da[off] = if a > 0.0 && a < 1.0 {
                            dout * net.w[w2 + k]
                        } else {
                            0.0
                        };
                    }
                }
                for (feats, off) in [(&s.white, 0), (&s.black, h)] {
                    let d = &da[off..off + h];
                    grad[b1..b1 + h]
                        .iter_mut()
                        .zip(d)
                        .for_each(|(g, x)| *g += x);
                    for &f in feats.iter() {
                        let col = &mut grad[f as usize * h..(f as usize + 1) * h];
                        col.iter_mut().zip(d).for_each(|(g, x)| *g += x);
                    }
                }
            }
            step += 1;
            let scale = 1.0 / batch.len() as f32;
            let c1 = 1.0 - beta1.powi(step);
            let c2 = 1.0 - beta2.powi(step);
            for j in 0..n {
                let g = grad[j] * scale;
                m[j] = beta1 * m[j] + (1.0 - beta1) * g;
                v[j] = beta2 * v[j] + (1.0 - beta2) * g * g;
                let upd = opts.rate * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                net.w[j] = (net.w[j] - upd).clamp(-CLIP, CLIP);
            }
        }
        let l = net.loss(&val);
        report.losses.push(l);
        progress(epoch, l);
    }
    let q = net.quantise(V::GAME, opts.scale);
    // The quantised network's loss, through the engine's own integer code.
    let total: f64 = val
        .iter()
        .map(|s| {
            let mut acc = vec![0i16; 2 * h];
            let (a0, a1) = acc.split_at_mut(h);
            a0.copy_from_slice(&q.ft_bias);
            a1.copy_from_slice(&q.ft_bias);
            for (feats, a) in [(&s.white, &mut *a0), (&s.black, &mut *a1)] {
                for &f in feats.iter() {
                    let col = &q.ft_weights[f as usize * h..(f as usize + 1) * h];
                    a.iter_mut()
                        .zip(col)
                        .for_each(|(x, w)| *x = x.wrapping_add(*w));
                }
            }
            let cp = q.output(&acc, s.stm);
            let d = sigmoid(cp as f32 / opts.scale as f32) - s.target;
            f64::from(d * d)
        })
        .sum();
    report.quantised_loss = total / val.len() as f64;
    Ok((q, report))
}

/// One probed position: the hand-written evaluation, the network's, and a depth-1 search
/// (one ply and quiescence) with the hand-written evaluation, all in centi-units from
/// White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    /// `EngineVariant::evaluate`.
    pub hand: i32,
    /// The network's evaluation, from scratch.
    pub net: i32,
    /// A depth-1 search with the hand-written evaluation.
    pub search1: i32,
}

/// [`Probe`]s of `net` on `positions`.
pub fn probe<V: EngineVariant + NnueGame<Pos = <V as game::Variant>::Position>>(
    net: &nnue::Network,
    positions: &[V::Position],
) -> Vec<Probe> {
    let mut searcher = Searcher::<V>::new(1);
    searcher.set_options(V::OPTIONS);
    positions
        .iter()
        .map(|pos| {
            let sign = if <V as game::Variant>::side_to_move(pos) == Color::White {
                1
            } else {
                -1
            };
            Probe {
                hand: sign * V::evaluate(pos),
                net: sign * net.evaluate::<V>(pos),
                search1: sign * label::<V>(&mut searcher, pos, 1),
            }
        })
        .collect()
}

/// The switches `on=nnue` adds to a game's defaults (for callers that print them).
pub fn nnue_options<V: EngineVariant>() -> SearchOptions {
    SearchOptions {
        nnue: true,
        ..V::OPTIONS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use iceage::IceAge;

    /// With `label_depth`, every score is the fixed-depth search's of that position.
    #[test]
    fn label_depth_scores_are_the_fixed_depth_search() {
        let opts = DataOptions {
            games: 1,
            nodes: 200,
            random_plies: 8,
            skip: 12,
            seed: 3,
            max_plies: 400,
            label_depth: Some(1),
        };
        let lines = game_lines::<IceAge>(&opts, 0);
        assert!(lines.len() > 5, "{} lines", lines.len());
        let mut s = Searcher::<IceAge>::new(1);
        s.set_options(<IceAge as EngineVariant>::OPTIONS);
        for line in lines.iter().take(20) {
            let mut parts = line.rsplitn(3, ';');
            let score: i32 = parts.next().unwrap().parse().unwrap();
            let pos = <IceAge as game::Variant>::parse_position(parts.nth(1).unwrap()).unwrap();
            let own = label::<IceAge>(&mut s, &pos, 1);
            let white = if <IceAge as game::Variant>::side_to_move(&pos) == Color::White {
                own
            } else {
                -own
            };
            assert_eq!(score, white, "{line}");
        }
    }

    /// The probe reports White's view: a position a queen down for White scores well
    /// below the start position by the hand-written evaluation.
    #[test]
    fn probe_reports_from_whites_side() {
        let start = <IceAge as game::Variant>::start_position();
        let down = <IceAge as game::Variant>::parse_position(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1",
        )
        .unwrap();
        let net = nnue::iceage_network().unwrap();
        let p = probe::<IceAge>(net, &[start, down]);
        assert!(p[1].hand < p[0].hand - 500, "{p:?}");
        assert!(p[1].search1 < p[0].search1 - 500, "{p:?}");
    }
}
