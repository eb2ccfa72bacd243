//! Perft from the start position (A3): the bulk-counted fast generator.
//! `cargo bench -p antarctos --bench perft`

use antarctos::Position;
use criterion::{Criterion, criterion_group, criterion_main};

fn perft_start(c: &mut Criterion) {
    let start = Position::start();
    let mut group = c.benchmark_group("perft_start");
    group.sample_size(10);
    for depth in [6u32, 8] {
        group.bench_function(format!("depth_{depth}"), |b| {
            b.iter(|| antarctos::perft(std::hint::black_box(&start), depth))
        });
    }
    group.finish();
}

fn legal_moves_start(c: &mut Criterion) {
    let start = Position::start();
    let mut out = Vec::new();
    c.bench_function("legal_moves_into_start", |b| {
        b.iter(|| {
            std::hint::black_box(&start).legal_moves_into(&mut out);
            out.len()
        })
    });
}

criterion_group!(benches, perft_start, legal_moves_start);
criterion_main!(benches);
