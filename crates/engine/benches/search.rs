//! Search speed: nodes per second on a fixed set of positions per game. Every search runs
//! to a node limit of `NODES` (it stops at exactly that count), so criterion's throughput
//! figure (elements/s) is the nodes per second.
//!
//! `cargo bench -p engine --bench search`

use std::hint::black_box;

use antarctos::Antarctos;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use engine::{EngineVariant, Limits, Searcher};
use iceage::IceAge;

const NODES: u64 = 100_000;

/// Start, an opening, a middlegame with ice, an ending; none is solved within the node
/// limit (a solved position would end the search early and inflate the figure).
const ANTARCTOS: [&str; 4] = [
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,g3,f4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,c1,e1,g1,b2,d2,c3,g3,b4,d4,h4:Ba5,e5,f6,h6,a7,c7,e7,b8,d8,f8,h8:Ie3,f4",
    "W:Wa1,c1,e1,b2,d2,f2:Bf6,h6,a7,c7,e7,g7",
];

const ICEAGE: [&str; 4] = [
    "rnbqkbnr/pppppppp/********/********/********/********/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppppppp/**n*****/********/********/***P****/PPPP1PPP/RNBQKBNR w KQkq - 1 2",
    "r3k2r/ppp2ppp/2n1bn2/3p4/3P4/2N1BN2/PPP2PPP/R3K2R w KQkq - 0 9",
    "8/5pk1/6p1/8/3K4/8/5P2/8 w - - 0 38",
];

fn bench_game<V: EngineVariant>(c: &mut Criterion, fens: &[&str]) {
    let mut group = c.benchmark_group(format!("search_{}", V::NAME));
    group.sample_size(10);
    group.throughput(Throughput::Elements(NODES));
    for (i, fen) in fens.iter().enumerate() {
        let pos = V::parse_position(fen).expect("benchmark position is valid");
        group.bench_function(format!("position_{i}"), |b| {
            b.iter(|| {
                let mut s = Searcher::<V>::new(16);
                let limits = Limits {
                    nodes: Some(NODES),
                    ..Limits::default()
                };
                black_box(s.search(&pos, &limits, |_| {}).best)
            })
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_game::<Antarctos>(c, &ANTARCTOS);
    bench_game::<IceAge>(c, &ICEAGE);
}

criterion_group!(search, benches);
criterion_main!(search);
