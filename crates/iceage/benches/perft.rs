//! Perft speed, ours against shakmaty's `Chess` on the same ice-free positions (bulk counted
//! at the last ply on both sides), plus the Ice Age start position (C4).
//!
//! `cargo bench -p iceage --bench perft`; the ratio ours/shakmaty is the ratio of their
//! nodes per second (the same node counts, so the inverse ratio of the times).

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use shakmaty::{CastlingMode, Chess, fen::Fen};
use std::hint::black_box;
use std::time::Duration;

const CASES: &[(&str, &str, u32, u64)] = &[
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        4,
        197_281,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        3,
        97_862,
    ),
];

fn perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for &(name, fen_text, depth, nodes) in CASES {
        let ours = iceage::fen::parse(fen_text).expect("valid FEN");
        let theirs: Chess = fen_text
            .parse::<Fen>()
            .expect("valid FEN")
            .into_position(CastlingMode::Standard)
            .expect("legal position");
        assert_eq!(iceage::perft(&ours, depth), nodes);
        assert_eq!(shakmaty::perft(&theirs, depth), nodes);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(BenchmarkId::new("iceage", name), &ours, |b, p| {
            b.iter(|| iceage::perft(black_box(p), depth))
        });
        group.bench_with_input(BenchmarkId::new("shakmaty", name), &theirs, |b, p| {
            b.iter(|| shakmaty::perft(black_box(p), depth))
        });
    }
    let ice = iceage::Position::start();
    group.throughput(Throughput::Elements(121_094));
    group.bench_with_input(BenchmarkId::new("iceage", "ice_age_start"), &ice, |b, p| {
        b.iter(|| iceage::perft(black_box(p), 4))
    });
    group.finish();
}

criterion_group!(benches, perft);
criterion_main!(benches);
