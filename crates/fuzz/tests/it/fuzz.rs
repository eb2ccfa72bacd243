//! The fuzz targets: a short run of each in `cargo test` (fixed seed, a few thousand
//! inputs), and every input ever kept in `testdata/fuzz/<target>/` replayed.
//!
//! Long mode: `FUZZ_SECONDS=600 cargo test -p fuzz --release -- --nocapture --test-threads 1`
//! runs each target that many seconds with a seed from the clock (or `FUZZ_SEED`), and
//! prints each report.

use std::time::Duration;

use fuzz::runner::{self, Budget};
use fuzz::targets::{self, Target};

/// The target called `name`.
fn target(name: &str) -> Box<dyn Target> {
    targets::all()
        .into_iter()
        .find(|t| t.name() == name)
        .unwrap_or_else(|| panic!("no target {name}"))
}

/// Short mode, or the long mode of `FUZZ_SECONDS`; fails on any finding.
fn run(name: &str, short_inputs: u64) {
    let t = target(name);
    let dir = fuzz::testdata().join("fuzz").join(name);
    let (budget, seed) = match std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
    {
        Some(seconds) => {
            let seed = std::env::var("FUZZ_SEED")
                .ok()
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_secs())
                        .unwrap_or(1)
                });
            eprintln!("fuzz {name}: seed {seed}");
            (
                Budget {
                    inputs: u64::MAX,
                    time: Duration::from_secs(seconds),
                },
                seed,
            )
        }
        None => (
            Budget {
                inputs: short_inputs,
                time: Duration::from_secs(30),
            },
            1,
        ),
    };
    let report = runner::fuzz(t.as_ref(), budget, seed, &dir);
    eprintln!("{report}");
    assert!(report.findings.is_empty(), "{report}");
    // A target whose every input is refused at the door (a stale token, a missing header)
    // tests nothing behind it: some inputs, the seeds at least, must get through.
    assert!(
        report.accepted * 20 >= report.inputs.min(1_000),
        "too few inputs accepted, the target tests little: {report}"
    );
}

#[test]
fn fuzz_antarctos_position_text() {
    run("antarctos-position", 20_000);
}

#[test]
fn fuzz_iceage_position_text() {
    run("iceage-position", 10_000);
}

#[test]
fn fuzz_antarctos_move_text() {
    run("antarctos-move", 20_000);
}

#[test]
fn fuzz_iceage_move_text() {
    run("iceage-move", 20_000);
}

#[test]
fn fuzz_pdn() {
    run("pdn", 5_000);
}

#[test]
fn fuzz_pgn() {
    run("pgn", 4_000);
}

#[test]
fn fuzz_server_json() {
    run("server-json", 1_000);
}

/// Every input kept under `testdata/fuzz/` (findings of earlier runs) runs clean now.
#[test]
fn fuzz_regressions_stay_fixed() {
    let mut total = 0;
    let mut failures = Vec::new();
    for t in targets::all() {
        let dir = fuzz::testdata().join("fuzz").join(t.name());
        let (count, findings) = runner::replay(t.as_ref(), &dir);
        total += count;
        failures.extend(findings);
    }
    eprintln!("fuzz regressions: {total} kept inputs replayed");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The runner itself: a panic, a broken round trip and a clean refusal are told apart, and
/// each finding is kept as a file that the replay finds again.
#[test]
fn the_runner_catches_panics_and_broken_round_trips() {
    struct Faulty;
    impl Target for Faulty {
        fn name(&self) -> &'static str {
            "faulty"
        }
        fn seeds(&self) -> Vec<String> {
            vec!["fine".into(), "boom".into(), "break".into()]
        }
        fn dictionary(&self) -> &'static [&'static str] {
            &["x"]
        }
        fn run(&self, input: &str, _: &mut fuzz::mutate::Mutator) -> Result<bool, String> {
            match input {
                "boom" => panic!("boom on purpose"),
                "break" => Err("a round trip broke on purpose".into()),
                _ => Ok(input == "fine"),
            }
        }
    }
    let dir_tmp = test_support::temp_dir("fuzz-runner");
    let dir = dir_tmp.path();
    let report = runner::fuzz(
        &Faulty,
        Budget {
            inputs: 50,
            time: Duration::from_secs(5),
        },
        3,
        dir,
    );
    let kinds: Vec<&str> = report.findings.iter().map(|f| f.kind).collect();
    assert_eq!(kinds, ["panic", "round-trip"], "{report}");
    assert!(
        report.findings[0].message.contains("boom on purpose"),
        "{report}"
    );
    assert_eq!(report.inputs, 53);
    let (replayed, findings) = runner::replay(&Faulty, dir);
    assert_eq!((replayed, findings.len()), (2, 2));
}
