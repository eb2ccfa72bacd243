//! Speed of reading game records: the shared reader of `game::records` (tokenize, split into
//! games, replay every move under the rules) on a large Ice Age PGN and a large Antarctos
//! PDN, in MB/s and games/s; and pgn-reader 0.29, the reader icebound used before, on the
//! same PGN bytes.
//!
//! `cargo bench --workspace --bench records`. The files are generated: random legal games
//! (a fixed seed; Ice Age Chess games of up to 120 plies pass Ice Ages, C5) written by the
//! records writer, about 2 MB each, so nothing large is committed. Set
//! `ICEBOUND_BENCH_PGN=FILE` to add a chess PGN of your own (such as a lichess or TWIC
//! export): pgn-reader scans it and replays it with shakmaty; icebound's reader reads it
//! too, refusing each game at its first move (a chess game is not Ice Age Chess), so that
//! figure measures tokenizing and splitting, not replay.
//!
//! pgn-reader is compared on two levels: `pgn-reader scan` parses the syntax and every SAN
//! without a board (it cannot replay Ice Age moves); `pgn-reader + shakmaty` also plays
//! every move on a chess board (only for a chess file).

use std::hint::black_box;
use std::ops::ControlFlow;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use game::records::{self, RecordRules};
use game::{Record, RecordResult};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{CastlingMode, Chess, Position, fen::Fen};

/// About this many bytes of records per generated file.
const TARGET_BYTES: usize = 2_000_000;

/// Random legal games written one after another until the text passes [`TARGET_BYTES`];
/// returns the text and its number of games.
fn generated<V: RecordRules>(max_plies: usize) -> (String, u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut text = String::new();
    let mut games = 0;
    while text.len() < TARGET_BYTES {
        let mut pos = V::start_position();
        let mut record = Record::<V>::new(pos.clone());
        for _ in 0..rng.random_range(10..=max_plies) {
            let moves = V::legal_moves(&pos);
            if moves.is_empty() || V::outcome(&pos).is_some() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())].clone();
            pos = V::play_unchecked(&pos, &mv);
            record.moves.push(mv);
        }
        record.result = RecordResult::Unknown;
        record
            .tags
            .push(("White".into(), format!("Player {}", games % 97)));
        record
            .tags
            .push(("Black".into(), format!("Player {}", games % 89)));
        text.push_str(&records::write(&record));
        text.push('\n');
        games += 1;
    }
    (text, games)
}

/// Counts games and SANs, parsing the syntax only.
struct Scan;

impl Visitor for Scan {
    type Tags = ();
    type Movetext = u64;
    type Output = u64;

    fn begin_tags(&mut self) -> ControlFlow<u64, ()> {
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, _: ()) -> ControlFlow<u64, u64> {
        ControlFlow::Continue(0)
    }
    fn san(&mut self, sans: &mut u64, san: SanPlus) -> ControlFlow<u64> {
        black_box(san);
        *sans += 1;
        ControlFlow::Continue(())
    }
    fn end_game(&mut self, sans: u64) -> u64 {
        sans
    }
}

/// Plays every move on a chess board (from the FEN tag when there is one); a game with an
/// illegal move stops there.
struct Replay;

impl Visitor for Replay {
    type Tags = Option<Chess>;
    type Movetext = Chess;
    type Output = u32;

    fn begin_tags(&mut self) -> ControlFlow<u32, Option<Chess>> {
        ControlFlow::Continue(None)
    }
    fn tag(
        &mut self,
        tags: &mut Option<Chess>,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<u32> {
        if name == b"FEN" {
            let Ok(fen) = Fen::from_ascii(value.as_bytes()) else {
                return ControlFlow::Break(0);
            };
            let Ok(pos) = fen.into_position(CastlingMode::Chess960) else {
                return ControlFlow::Break(0);
            };
            *tags = Some(pos);
        }
        ControlFlow::Continue(())
    }
    fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<u32, Chess> {
        ControlFlow::Continue(tags.unwrap_or_default())
    }
    fn san(&mut self, pos: &mut Chess, san: SanPlus) -> ControlFlow<u32> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(0),
        }
    }
    fn end_game(&mut self, pos: Chess) -> u32 {
        pos.fullmoves().get()
    }
}

/// A reader under test: the file's text in, the number of games it saw out.
type ReadFn<'a> = &'a dyn Fn(&str) -> u64;

fn pgn_reader_games<V: Visitor>(text: &str, mut visitor: V) -> u64 {
    let mut reader = Reader::new(text.as_bytes());
    let mut games = 0;
    while let Ok(Some(out)) = reader.read_game(&mut visitor) {
        black_box(out);
        games += 1;
    }
    games
}

/// Reads every game with icebound's reader; the number of games read (not refused).
fn icebound_games<V: RecordRules>(text: &str) -> u64 {
    let reading = records::read::<V>(text);
    reading.games.iter().filter(|g| g.is_ok()).count() as u64
}

/// Prints one line of the file's figures, so a run states what it measured.
fn describe(name: &str, text: &str, games: u64, read: u64) {
    println!(
        "{name}: {:.2} MB, {games} games, {read} read by icebound",
        text.len() as f64 / 1e6
    );
}

fn bench_file(c: &mut Criterion, name: &str, text: &str, games: u64, readers: &[(&str, ReadFn)]) {
    for (unit, throughput) in [
        ("MB/s", Throughput::Bytes(text.len() as u64)),
        ("games/s", Throughput::Elements(games)),
    ] {
        let mut group = c.benchmark_group(format!("records {name} ({unit})"));
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(3))
            .throughput(throughput);
        for (reader, read) in readers {
            group.bench_with_input(BenchmarkId::from_parameter(reader), text, |b, t| {
                b.iter(|| read(black_box(t)))
            });
        }
        group.finish();
    }
}

fn records_bench(c: &mut Criterion) {
    let (pgn, pgn_games) = generated::<iceage::IceAge>(120);
    let read = icebound_games::<iceage::IceAge>(&pgn);
    assert_eq!(read, pgn_games, "every generated Ice Age game reads back");
    assert_eq!(
        pgn_reader_games(&pgn, Scan),
        pgn_games,
        "pgn-reader sees every game"
    );
    describe("iceage.pgn", &pgn, pgn_games, read);
    bench_file(
        c,
        "iceage.pgn",
        &pgn,
        pgn_games,
        &[
            ("icebound read", &icebound_games::<iceage::IceAge>),
            ("pgn-reader scan", &|t| pgn_reader_games(t, Scan)),
        ],
    );

    let (pdn, pdn_games) = generated::<antarctos::Antarctos>(80);
    let read = icebound_games::<antarctos::Antarctos>(&pdn);
    assert_eq!(read, pdn_games, "every generated Antarctos game reads back");
    describe("antarctos.pdn", &pdn, pdn_games, read);
    bench_file(
        c,
        "antarctos.pdn",
        &pdn,
        pdn_games,
        &[("icebound read", &icebound_games::<antarctos::Antarctos>)],
    );

    if let Ok(path) = std::env::var("ICEBOUND_BENCH_PGN") {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let chess = records::decode(&bytes).text;
        let games = pgn_reader_games(&chess, Scan);
        describe(
            &path,
            &chess,
            games,
            icebound_games::<iceage::IceAge>(&chess),
        );
        bench_file(
            c,
            "chess.pgn",
            &chess,
            games,
            &[
                (
                    "icebound read (refuses at move 1)",
                    &icebound_games::<iceage::IceAge>,
                ),
                ("pgn-reader scan", &|t| pgn_reader_games(t, Scan)),
                ("pgn-reader + shakmaty", &|t| pgn_reader_games(t, Replay)),
            ],
        );
    }
}

criterion_group!(benches, records_bench);
criterion_main!(benches);
