//! `icebound selfplay` and `icebound match`: output structure and arithmetic on tiny runs,
//! and clear errors for bad settings.

use crate::common;
use test_support::temp_dir;

use common::icebound;

fn fails_with(args: &[&str], needle: &str) {
    let (ok, _, err) = icebound(args);
    assert!(!ok, "{args:?} should fail");
    assert!(
        err.contains(needle),
        "{args:?}: stderr {err:?} lacks {needle:?}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn match_rejects_bad_settings() {
    let base = ["match", "--variant", "antarctos", "--games", "2"];
    let with = |extra: &[&str]| -> Vec<String> {
        base.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let run = |extra: &[&str], needle: &str| {
        let args = with(extra);
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        fails_with(&refs, needle);
    };
    run(
        &["--engine-a", "level=9", "--engine-b", "level=1"],
        "--engine-a: level=9: levels go from 1 to 8",
    );
    run(
        &["--engine-a", "level=2", "--engine-b", "speed=3"],
        "--engine-b: unknown engine setting 'speed'",
    );
    run(
        &["--engine-a", "nodes=x", "--engine-b", "level=1"],
        "nodes=x: not a non-negative integer",
    );
    run(
        &[
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
            "--sprt",
            "elo0=10,elo1=0",
        ],
        "--sprt: SPRT needs elo0 < elo1",
    );
    run(
        &[
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
            "--sprt",
            "elo1=5",
        ],
        "SPRT needs both elo0 and elo1",
    );
    run(
        &[
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
            "--balanced",
            "-5",
        ],
        "invalid value '-5' for '--balanced <CENTI_UNITS>': -5 is not in 0..=10000",
    );
    run(
        &[
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
            "--balanced",
            "20000",
        ],
        "invalid value '20000' for '--balanced <CENTI_UNITS>': 20000 is not in 0..=10000",
    );
    run(
        &[
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
            "--balanced",
            "50",
            "--random-plies",
            "0",
        ],
        "--balanced needs random openings to choose from",
    );
    run(
        &[
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
            "--balanced",
            "50",
            "--database",
        ],
        "--balanced with --database",
    );
    run(
        &[
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
            "--sprt-prior",
            "1,2,3,4,5",
        ],
        "--sprt-prior goes on with an SPRT: give --sprt too",
    );
    run(
        &[
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
            "--sprt",
            "elo0=0,elo1=5",
            "--sprt-prior",
            "1,2,3,4",
        ],
        "--sprt-prior: '1,2,3,4': five counts",
    );
    run(
        &[
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
            "--sprt",
            "elo0=0,elo1=5",
            "--sprt-prior",
            "1,2,-3,4,5",
        ],
        "--sprt-prior: '-3' is not a count of pairs",
    );
    // Counts whose sum wrapped around 2^64 gave an LLR of -2.6e17 with "continue".
    for prior in [
        "18446744073709551615,1,0,0,0",
        "9223372036854775807,9223372036854775807,2,0,0",
    ] {
        run(
            &[
                "--engine-a",
                "level=2",
                "--engine-b",
                "level=1",
                "--sprt",
                "elo0=0,elo1=5",
                "--sprt-prior",
                prior,
            ],
            "at most 1000000000000 earlier pairs",
        );
    }
    fails_with(
        &[
            "match",
            "--variant",
            "iceage",
            "--games",
            "3",
            "--engine-a",
            "level=2",
            "--engine-b",
            "level=1",
        ],
        "must be even",
    );
}

#[test]
fn selfplay_rejects_bad_settings() {
    fails_with(
        &["selfplay", "--variant", "antarctos", "--games", "2"],
        "--level L or --nodes N",
    );
    fails_with(
        &[
            "selfplay",
            "--variant",
            "iceage",
            "--games",
            "2",
            "--level",
            "9",
        ],
        "levels go from 1 to 8",
    );
    fails_with(
        &[
            "selfplay",
            "--variant",
            "iceage",
            "--games",
            "0",
            "--level",
            "1",
        ],
        "--games 0",
    );
    fails_with(
        &[
            "selfplay",
            "--variant",
            "iceage",
            "--games",
            "2",
            "--level",
            "1",
            "--out",
            "/nonexistent-dir/x.pgn",
        ],
        "cannot create --out file",
    );
}

/// The number after `key` in a line starting with `key`, e.g. `white wins 3 (50.00 %)`.
fn field(out: &str, key: &str) -> (u64, f64) {
    let line = out
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no line '{key}' in\n{out}"));
    let rest = line[key.len()..].trim();
    let (count, pct) = rest.split_once('(').expect("count (pct %)");
    let pct = pct.trim_end_matches(')').trim_end_matches('%').trim();
    (count.trim().parse().unwrap(), pct.parse().unwrap())
}

#[test]
fn selfplay_output_adds_up_and_records_replay() {
    for (variant, ext) in [("antarctos", "pdn"), ("iceage", "pgn")] {
        let dir_tmp = temp_dir("lab");
        let dir = dir_tmp.path();
        let file = dir.join(format!("selfplay.{ext}"));
        let args = [
            "selfplay",
            "--variant",
            variant,
            "--games",
            "6",
            "--nodes",
            "200",
            "--random-plies",
            "2",
            "--threads",
            "2",
            "--seed",
            "5",
            "--out",
            file.to_str().unwrap(),
        ];
        let (ok, out, err) = icebound(&args);
        assert!(ok, "{err}");
        let counts: Vec<(u64, f64)> = ["white wins", "black wins", "draws", "capped"]
            .iter()
            .map(|k| field(&out, k))
            .collect();
        assert_eq!(counts.iter().map(|c| c.0).sum::<u64>(), 6, "{out}");
        for (count, pct) in &counts {
            assert!((*count as f64 * 100.0 / 6.0 - pct).abs() < 0.006, "{out}");
        }
        // End reasons: indented lines after "end reasons", adding up to the games.
        let reasons: u64 = out
            .lines()
            .skip_while(|l| *l != "end reasons")
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .map(|l| {
                let before = l.split('(').next().unwrap();
                before
                    .split_whitespace()
                    .last()
                    .unwrap()
                    .parse::<u64>()
                    .unwrap()
            })
            .sum();
        assert_eq!(reasons, 6, "{out}");
        assert!(out.contains("white score "), "{out}");
        assert!(out.contains("length mean "), "{out}");
        assert!(out.contains(&format!("records 6 games written to {}", file.display())));
        // The file reads back: 6 legal games whose results match the table.
        let text = std::fs::read_to_string(&file).unwrap();
        let results: Vec<String> = if variant == "antarctos" {
            use game::Variant;
            antarctos::Antarctos::read_records(&text)
                .into_iter()
                .map(|r| r.expect("record replays").result.as_str().to_string())
                .collect()
        } else {
            use game::Variant;
            iceage::IceAge::read_records(&text)
                .into_iter()
                .map(|r| r.expect("record replays").result.as_str().to_string())
                .collect()
        };
        assert_eq!(results.len(), 6);
        let white = results.iter().filter(|r| *r == "1-0").count() as u64;
        assert_eq!(white, counts[0].0);
        // Same seed, same games: the report is identical on one thread.
        let mut one = args.to_vec();
        one[10] = "1";
        let (_, again, _) = icebound(&one);
        let strip = |s: &str| -> String {
            s.lines()
                .filter(|l| !l.starts_with("selfplay "))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(strip(&out), strip(&again));
    }
}

#[test]
fn match_output_adds_up() {
    let (ok, out, err) = icebound(&[
        "match",
        "--variant",
        "antarctos",
        "--engine-a",
        "nodes=300",
        "--engine-b",
        "nodes=50",
        "--games",
        "8",
        "--random-plies",
        "2",
        "--sprt",
        "elo0=0,elo1=10",
    ]);
    assert!(ok, "{err}");
    let line = |key: &str| -> String {
        out.lines()
            .find(|l| l.starts_with(key))
            .unwrap_or_else(|| panic!("no '{key}' in\n{out}"))
            .to_string()
    };
    let nums = |l: &str| -> Vec<f64> {
        l.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .filter_map(|t| t.parse().ok())
            .collect()
    };
    let games = nums(&line("games "));
    let (n, pairs) = (games[0], games[1]);
    assert_eq!(pairs * 2.0, n);
    assert!((2.0..=8.0).contains(&n));
    let wdl = nums(&line("A wins "));
    assert_eq!(wdl[0] + wdl[1] + wdl[2], n, "{out}");
    let score = nums(&line("score A "));
    assert!(
        (score[0] - (wdl[0] + wdl[1] / 2.0) / n).abs() < 5e-5,
        "{out}"
    );
    assert_eq!(score[1], wdl[0] + wdl[1] / 2.0);
    let by_pair = nums(&line("pairs by A's points "));
    // "0:a 0.5:b 1:c 1.5:d 2:e" -> labels and counts alternate.
    let counts: Vec<f64> = by_pair.iter().skip(1).step_by(2).copied().collect();
    assert_eq!(counts.iter().sum::<f64>(), pairs, "{out}");
    let points: f64 = counts
        .iter()
        .enumerate()
        .map(|(k, c)| k as f64 / 2.0 * c)
        .sum();
    assert_eq!(points, score[1], "{out}");
    let elo = line("elo A-B ");
    if score[0] == 0.0 || score[0] == 1.0 {
        assert!(elo.contains("no finite estimate"), "{elo}");
    } else {
        assert!(elo.contains("±"), "{elo}");
    }
    let sprt = line("sprt llr ");
    assert!(sprt.contains("bounds -2.944 2.944"), "{sprt}");
    assert!(
        ["verdict H0", "verdict H1", "verdict continue"]
            .iter()
            .any(|v| sprt.contains(v)),
        "{sprt}"
    );
}

/// `--balanced`: the report says how many openings were drawn again, and the records carry
/// the judge's score of each opening within the bound.
#[test]
fn match_with_balanced_openings_reports_and_tags_them() {
    let dir_tmp = temp_dir("balanced");
    let dir = dir_tmp.path();
    let path = dir.join("m.pdn");
    let (ok, out, err) = icebound(&[
        "match",
        "--variant",
        "antarctos",
        "--engine-a",
        "nodes=300",
        "--engine-b",
        "nodes=50",
        "--games",
        "8",
        "--random-plies",
        "4",
        "--seed",
        "21",
        "--balanced",
        "50",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("balanced openings: the baseline at 100000 nodes scores each within ±50"),
        "{out}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("openings drawn again"))
        .unwrap_or_else(|| panic!("no opening line in\n{out}"));
    assert!(
        line.contains("of 4 pairs; not balanced after 200 draws: 0"),
        "{line}"
    );
    let records = std::fs::read_to_string(&path).unwrap();
    let scores: Vec<i32> = records
        .lines()
        .filter_map(|l| {
            l.strip_prefix(
                "[Opening \"4 random plies, balanced: the baseline scores the side to move ",
            )
        })
        .map(|rest| rest.trim_end_matches("\"]").parse().unwrap())
        .collect();
    assert_eq!(scores.len(), 8, "{records}");
    assert!(scores.iter().all(|s| s.abs() <= 50), "{scores:?}");
}

/// `--balanced` where every drawn opening ends the game: those pairs count as not balanced
/// (a tester's finding: the report said 0).
#[test]
fn match_counts_openings_that_end_the_game_as_not_balanced() {
    let (ok, out, err) = icebound(&[
        "match",
        "--variant",
        "antarctos",
        "--engine-a",
        "nodes=200",
        "--engine-b",
        "nodes=200",
        "--games",
        "4",
        "--random-plies",
        "150",
        "--seed",
        "3",
        "--balanced",
        "50",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains("2 of 2 pairs; not balanced after 200 draws: 2"),
        "{out}"
    );
}

/// `--sprt-prior`: the SPRT goes on from an earlier run's pairs. This prior (3,000 pairs,
/// A ahead by about 13 Elo) has an LLR of 3.24, past the upper bound already, and one pair
/// moves it by under 0.05, so the first pair of this run decides (H1) and the run stops; the
/// score and the pair line are this run's, the LLR is of both runs.
#[test]
fn match_goes_on_from_an_earlier_runs_pairs() {
    let (ok, out, err) = icebound(&[
        "match",
        "--variant",
        "antarctos",
        "--engine-a",
        "nodes=300",
        "--engine-b",
        "nodes=50",
        "--games",
        "8",
        "--random-plies",
        "2",
        "--sprt",
        "elo0=0,elo1=5",
        "--sprt-prior",
        "498, 238, 1406, 255, 603",
    ]);
    assert!(ok, "{err}");
    assert!(
        out.contains(
            "the SPRT goes on from 3000 earlier pairs (by A's points 0:498 0.5:238 1:1406 1.5:255 2:603)"
        ),
        "{out}"
    );
    assert!(out.contains("games 2 (1 pairs)"), "one pair decides: {out}");
    let sprt = out
        .lines()
        .find(|l| l.starts_with("sprt llr "))
        .unwrap_or_else(|| panic!("no sprt line in\n{out}"));
    assert!(sprt.contains("verdict H1, stopped after 2 games"), "{sprt}");
    let both = out
        .lines()
        .find(|l| l.starts_with("sprt over both runs: 3001 pairs"))
        .unwrap_or_else(|| panic!("no line for both runs in\n{out}"));
    // This run's pair added to the prior's.
    let own = out
        .lines()
        .find(|l| l.starts_with("pairs by A's points "))
        .unwrap_or_else(|| panic!("no pair line in\n{out}"));
    let won_both = own.ends_with("2:1");
    assert!(
        both.ends_with(if won_both { "2:604)" } else { "2:603)" }),
        "{own} / {both}"
    );
}

#[test]
fn tune_holds_the_terms_it_is_told_to_and_records_the_command() {
    let dir_tmp = temp_dir("tune");
    let dir = dir_tmp.path();
    let data = dir.join("data.txt");
    let weights = dir.join("weights.rs");
    let data_s = data.to_str().expect("utf-8 path");
    let weights_s = weights.to_str().expect("utf-8 path");
    let (ok, out, err) = icebound(&[
        "tune",
        "--variant",
        "antarctos",
        "--data",
        data_s,
        "--games",
        "6",
        "--nodes",
        "300",
        "--random-plies",
        "4",
        "--skip",
        "4",
        "--seed",
        "3",
    ]);
    assert!(ok, "{out}{err}");
    let (ok, out, err) = icebound(&[
        "tune",
        "--variant",
        "antarctos",
        "--data",
        data_s,
        "--fit",
        "--epochs",
        "100",
        "--rate",
        "3",
        "--hold",
        "advance,home guard",
        "--write",
        weights_s,
    ]);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("home guard") && out.contains("  held"),
        "{out}"
    );
    let text = std::fs::read_to_string(&weights).expect("weights written");
    assert!(
        text.contains("(the fit started from the weights this file replaced)"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "--fit --hold 'advance,home guard' --epochs 100 --rate 3 --write {weights_s}`"
        )),
        "{text}"
    );
    let (_, list) = text.split_once("= [").expect("the array");
    let (list, _) = list.split_once("];").expect("its end");
    let fitted: Vec<i32> = list
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().expect("a number"))
        .collect();
    let current = engine::eval::antarctos::WEIGHTS;
    assert_eq!(
        fitted[..8],
        current[..8],
        "man, advance 1-6, home guard held"
    );
    assert_ne!(fitted[8..], current[8..], "the other terms fitted");
    // The fit also prints them as an engine setting that a match reads back.
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("as an engine setting: "))
        .expect("the setting line");
    let config = lab::setting::parse_setting(&format!("nodes=1,{line}")).expect("a setting");
    assert_eq!(config.weights.as_deref(), Some(&fitted[..]));
    fails_with(
        &[
            "tune",
            "--variant",
            "antarctos",
            "--data",
            data_s,
            "--fit",
            "--hold",
            "advance 9",
        ],
        "--hold: 'advance 9' names no term of the Antarctos evaluation",
    );
    // Bad rates, headers that could not be recorded, a write into no directory: refused
    // before the fit, and the weights file is left alone.
    let before = std::fs::read_to_string(&weights).expect("weights");
    for (extra, needle) in [
        (&["--rate", "NaN"][..], "--rate"),
        (&["--rate", "inf"][..], "--rate"),
        (&["--rate=-5"][..], "must be above 0"),
        (&["--hold", "advance,\n"][..], "cannot be recorded"),
        (&["--hold", ","][..], "names no term"),
        (
            &["--write", "/nonexistent-dir/w.rs"][..],
            "no directory /nonexistent-dir",
        ),
    ] {
        let mut args = vec!["tune", "--variant", "antarctos", "--data", data_s, "--fit"];
        args.extend_from_slice(extra);
        if !extra.contains(&"--write") {
            args.extend_from_slice(&["--write", weights_s]);
        }
        fails_with(&args, needle);
    }
    assert_eq!(std::fs::read_to_string(&weights).expect("weights"), before);
    // --games 0 refuses before it replaces the data with nothing.
    let data_before = std::fs::read_to_string(&data).expect("data");
    fails_with(
        &[
            "tune",
            "--variant",
            "antarctos",
            "--data",
            data_s,
            "--games",
            "0",
        ],
        "--games 0: nothing to play",
    );
    assert_eq!(std::fs::read_to_string(&data).expect("data"), data_before);
    // --write (which would write nothing) and --hold (which would hold nothing) without
    // --fit: refused rather than ignored.
    for (option, value) in [("--write", weights_s), ("--hold", "advance")] {
        fails_with(
            &[
                "tune",
                "--variant",
                "antarctos",
                "--data",
                data_s,
                "--games",
                "1",
                option,
                value,
            ],
            "--fit",
        );
    }
}
