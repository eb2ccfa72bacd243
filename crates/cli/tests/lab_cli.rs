//! `icebound selfplay` and `icebound match`: output structure and arithmetic on tiny runs,
//! and clear errors for bad settings.

use std::process::Command;

fn icebound(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_icebound"))
        .args(args)
        .output()
        .expect("run icebound");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

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
