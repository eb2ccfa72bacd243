//! `icebound puzzles mine --from site --database URL` (issue 39): the site's finished games
//! are mined and the puzzles found are added to its database, each naming the game it came
//! from; the shipped files pass `icebound puzzles check`.

use antarctos::Antarctos;
use game::Variant;
use serde_json::json;
use server::Store;
use server::client::ApiClient;

use crate::common::{icebound, serve};

/// Plays self-play game records through the site as local games; returns their ids.
async fn play_records(c: &mut ApiClient, pdn: &[u8]) -> Vec<String> {
    let reading = game::records::read_bytes::<Antarctos>(pdn);
    let mut ids = Vec::new();
    for record in reading.games.into_iter().map(|r| r.expect("a record")) {
        let g = c
            .post(
                "/api/games",
                json!({"variant": "antarctos", "opponent": "local"}),
            )
            .await
            .expect("create");
        assert_eq!(g.status, 201, "{}", g.text);
        let id = g.body["id"].as_str().expect("id").to_string();
        let mut pos = record.start.clone();
        for (ply, mv) in record.moves.iter().enumerate() {
            let text = Antarctos::move_text(&pos, mv);
            let a = c
                .post(
                    &format!("/api/games/{id}/moves"),
                    json!({"move": text, "ply": ply}),
                )
                .await
                .expect("move");
            assert_eq!(a.status, 200, "{}", a.text);
            pos = Antarctos::play_unchecked(&pos, mv);
        }
        if Antarctos::outcome(&pos).is_some() {
            ids.push(id);
        }
    }
    ids
}

#[test]
fn mining_the_sites_games_adds_puzzles_that_name_their_game() {
    let dir_tmp = serve::temp_dir("puzzles-site");
    let dir = dir_tmp.path();
    let url = format!("sqlite://{}?mode=rwc", dir.join("site.db").display());
    let pdn = dir.join("games.pdn");
    let pdn_text = pdn.to_str().expect("path");
    // Another seed than the shipped file's: its puzzles are new.
    let (ok, out, err) = icebound(&[
        "selfplay",
        "--variant",
        "antarctos",
        "--games",
        "6",
        "--level",
        "2",
        "--seed",
        "77",
        "--random-plies",
        "6",
        "--out",
        pdn_text,
    ]);
    assert!(ok, "{out}{err}");
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let addr = serve::free_addr();
    let finished = runtime.block_on(async {
        let mut child = serve::start(&url, addr, &["--no-rate-limits"]);
        serve::wait_ready(&mut child, addr).await;
        let mut c = ApiClient::new(addr);
        let ids = play_records(&mut c, &std::fs::read(&pdn).expect("pdn")).await;
        drop(child);
        ids
    });
    assert!(!finished.is_empty(), "self-play games end");

    let csv = dir.join("mined.csv");
    let (ok, out, err) = icebound(&[
        "puzzles",
        "mine",
        "--variant",
        "antarctos",
        "--from",
        "site",
        "--database",
        &url,
        "--out",
        csv.to_str().expect("path"),
        "--max-plies",
        "9",
    ]);
    assert!(ok, "{out}{err}");
    let written: usize = out
        .lines()
        .find_map(|l| l.strip_prefix("wrote "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no 'wrote' line: {out}"));
    let added: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("added "))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no 'added' line: {out}"));
    assert!(written > 0, "the games hold puzzles: {out}");
    assert!(added > 0 && added as usize <= written, "{out}");

    let stored = runtime.block_on(async {
        let store = Store::open(&url).await.expect("open");
        let text = std::fs::read_to_string(&csv).expect("csv");
        let mut rows = Vec::new();
        for line in text.lines().skip(1) {
            let id = line.split(',').next().expect("id");
            rows.push(store.puzzle(id).await.expect("read").expect("stored"));
        }
        store.close().await;
        rows
    });
    for p in &stored {
        assert!(finished.contains(&p.game), "{} names game {}", p.id, p.game);
    }

    // Mining again adds nothing.
    let (ok, out, err) = icebound(&[
        "puzzles",
        "mine",
        "--variant",
        "antarctos",
        "--from",
        "site",
        "--database",
        &url,
        "--out",
        csv.to_str().expect("path"),
        "--max-plies",
        "9",
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("added 0 new puzzles"), "{out}");

    // The operator retires a puzzle (kept, out of service) and restores it; an unknown id
    // is named and fails the command.
    let id = stored[0].id.clone();
    let (ok, out, err) = icebound(&[
        "puzzles",
        "retire",
        "--database",
        &url,
        "--reason",
        "too easy",
        &id,
    ]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("retired 1 puzzles"), "{out}");
    let retired = runtime.block_on(async {
        let store = Store::open(&url).await.expect("open");
        let p = store.puzzle(&id).await.expect("read").expect("kept");
        store.close().await;
        p.retired
    });
    assert_eq!(retired, "too easy");
    let (ok, out, err) = icebound(&[
        "puzzles",
        "retire",
        "--database",
        &url,
        "--restore",
        &id,
        "nope",
    ]);
    assert!(!ok, "{out}{err}");
    assert!(
        out.contains("restored 1 puzzles") && err.contains("no such puzzle: nope"),
        "{out}{err}"
    );
}

/// Found by testers: `--limit` printed a summary of puzzles not written, games left out of
/// a file were not counted, `check` passed an empty file and ids the site cannot serve.
#[test]
fn the_summary_counts_what_is_written_and_check_refuses_what_the_site_cannot_serve() {
    let dir_tmp = serve::temp_dir("puzzles-summary");
    let dir = dir_tmp.path();
    let csv = dir.join("few.csv");
    let (ok, out, err) = icebound(&[
        "puzzles",
        "mine",
        "--variant",
        "antarctos",
        "--from",
        "selfplay:12",
        "--level",
        "2",
        "--threads",
        "1",
        "--limit",
        "2",
        "--out",
        csv.to_str().expect("path"),
    ]);
    assert!(ok, "{out}{err}");
    let number = |after: &str| -> u64 {
        out.split(after)
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no '{after}': {out}"))
    };
    let (kept, written) = (number("kept "), number("written "));
    assert_eq!(kept, written, "{out}");
    let lengths: u64 = out
        .lines()
        .find_map(|l| l.strip_prefix("lengths: "))
        .map(|l| {
            l.split(", ")
                .filter_map(|part| part.rsplit(' ').next()?.parse::<u64>().ok())
                .sum()
        })
        .unwrap_or(0);
    assert_eq!(lengths, written, "{out}");

    // A file with games of other kinds: they are counted, by reason.
    let records = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/records/other-variants.pgn");
    let (_, out, err) = icebound(&[
        "puzzles",
        "mine",
        "--variant",
        "iceage",
        "--from",
        records.to_str().expect("path"),
        "--out",
        dir.join("o.csv").to_str().expect("path"),
    ]);
    assert!(
        (out.contains("games left out: ") || err.contains("no game could be read ("))
            && format!("{out}{err}").contains("another_game"),
        "{out}{err}"
    );

    // `check`: an empty file, and an id the site would never serve, each named.
    let header = "id,variant,fen,moves,length,themes,rating,game,ply,seen,hint\n";
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, header).expect("write");
    let (ok, out, err) = icebound(&[
        "puzzles",
        "check",
        "--variant",
        "antarctos",
        empty.to_str().expect("path"),
    ]);
    assert!(!ok && err.contains("no puzzle in the file"), "{out}{err}");
    let bad = dir.join("bad.csv");
    std::fs::write(
        &bad,
        format!(
            "{header}../etc,antarctos,\"W:Wb2,c1,h2:Ba3,c5:Ie5,e7,g3\",h2xf4xd6xb4,1,,1500,,0,,\n"
        ),
    )
    .expect("write");
    let (ok, out, err) = icebound(&[
        "puzzles",
        "check",
        "--variant",
        "antarctos",
        bad.to_str().expect("path"),
    ]);
    assert!(!ok, "{out}{err}");
    assert!(
        err.contains("line 2") && err.contains("column id"),
        "{out}{err}"
    );
}

#[test]
fn from_site_needs_the_database() {
    let dir_tmp = serve::temp_dir("puzzles-site-bad");
    let dir = dir_tmp.path();
    let csv = dir.join("x.csv");
    let (ok, _, err) = icebound(&[
        "puzzles",
        "mine",
        "--variant",
        "antarctos",
        "--from",
        "site",
        "--out",
        csv.to_str().expect("path"),
    ]);
    assert!(!ok);
    assert!(err.contains("--database"), "{err}");
}

#[test]
fn the_shipped_puzzle_files_pass_the_check() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/puzzles");
    for variant in ["antarctos", "iceage"] {
        let file = root.join(format!("{variant}.csv"));
        let (ok, out, err) = icebound(&[
            "puzzles",
            "check",
            "--variant",
            variant,
            file.to_str().expect("path"),
        ]);
        assert!(ok, "{variant}: {out}{err}");
        let count: usize = out
            .lines()
            .find_map(|l| l.strip_suffix(" wrong"))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count: {out}"));
        assert!(
            count >= 300,
            "{variant}: {count} puzzles, a fresh site needs 300"
        );
        assert!(out.contains(", 0 wrong"), "{out}");
    }
}
