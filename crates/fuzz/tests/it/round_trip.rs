//! The round trip of records with everything a record holds: random legal games of both
//! games with tags full of quotes and backslashes, comments with braces and semicolons,
//! NAGs 0-255 and nested variations, written and read back (A19, C14). Generated with a
//! fixed seed, so that a failure is reproducible.

use antarctos::Antarctos;
use game::records::{self, RecordRules};
use game::{Record, Variant};
use iceage::IceAge;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Tags the writer derives or fills in, left out of the comparison.
fn own_tags<V: RecordRules>(record: &Record<V>) -> Vec<(String, String)> {
    record
        .tags
        .iter()
        .filter(|(name, _)| {
            name != "Termination" && !V::FORMAT.roster.iter().any(|(r, _)| r == name)
        })
        .cloned()
        .collect()
}

fn round_trips<V: RecordRules>(seed: u64, games: usize) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for i in 0..games {
        let record = fuzz::generate::random_record::<V>(&mut rng);
        let text = V::write_record(&record);
        let reading = records::read::<V>(&text);
        assert_eq!(reading.games.len(), 1, "game {i}:\n{text}");
        let back = reading.games[0]
            .as_ref()
            .unwrap_or_else(|e| panic!("game {i}: {e}\n{text}"));
        assert_eq!(back.start, record.start, "game {i}:\n{text}");
        assert_eq!(back.main_line(), record.main_line(), "game {i}:\n{text}");
        assert_eq!(back.result, record.result, "game {i}:\n{text}");
        assert_eq!(own_tags(back), own_tags(&record), "game {i}:\n{text}");
        for (name, _) in V::FORMAT.roster {
            assert_eq!(
                back.tag(name),
                record.tag(name),
                "game {i} tag {name}:\n{text}"
            );
        }
        assert_eq!(
            V::write_record(back),
            text,
            "game {i}: written differently the second time"
        );
        assert!(
            text.lines().all(|l| l.starts_with('[')
                || l.starts_with(';')
                || l.chars().count() < 80
                || !l.contains(' ')),
            "game {i}: a long line\n{text}"
        );
    }
}

#[test]
fn a19_annotated_pdn_round_trips() {
    round_trips::<Antarctos>(19, 150);
}

#[test]
fn c14_annotated_pgn_round_trips() {
    round_trips::<IceAge>(14, 100);
}

/// Several games in one file read back one by one, in order.
#[test]
fn many_games_in_one_file_read_back_in_order() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let games: Vec<Record<IceAge>> = (0..8)
        .map(|_| fuzz::generate::random_record(&mut rng))
        .collect();
    let text: String = games
        .iter()
        .map(IceAge::write_record)
        .collect::<Vec<_>>()
        .join("\n");
    let reading = records::read::<IceAge>(&text);
    assert_eq!(reading.games.len(), games.len());
    for (g, back) in games.iter().zip(&reading.games) {
        let back = back.as_ref().expect("reads");
        assert_eq!(back.main_line(), g.main_line());
        assert_eq!(
            IceAge::position_text(&back.start),
            IceAge::position_text(&g.start)
        );
    }
}
