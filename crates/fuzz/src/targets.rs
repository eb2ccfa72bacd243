//! What is fuzzed, and what counts as a finding besides a panic or a hang.
//!
//! | target | input | checked |
//! | --- | --- | --- |
//! | `antarctos-position`, `iceage-position` | position text | a position read is written and read back to itself; its legal moves' text reads back to the same moves |
//! | `antarctos-move`, `iceage-move` | `position text` NEWLINE `move text` | a move read is legal, and its canonical text reads back to it |
//! | `pdn`, `pgn` | a record file (also as Windows-1252 bytes, bytes mutated) | every game read is written and read back to the same game, and writing it again gives the same text |
//! | `server-json` | a request body | the site answers every POST endpoint with a status below 500 |

use std::sync::Mutex;

use antarctos::Antarctos;
use game::Variant;
use game::records::{self, RecordRules};
use iceage::IceAge;

use crate::generate;
use crate::mutate::Mutator;

/// A fuzz target.
pub trait Target: Sync {
    /// The name: the directory of its findings under `testdata/fuzz/`.
    fn name(&self) -> &'static str;
    /// Valid and near-valid inputs to start from.
    fn seeds(&self) -> Vec<String>;
    /// Words the mutator inserts.
    fn dictionary(&self) -> &'static [&'static str];
    /// Runs one input: `Ok(true)` when it was accepted (worth mutating further), `Ok(false)`
    /// when it was refused cleanly, `Err` for a broken round trip.
    fn run(&self, input: &str, mutator: &mut Mutator) -> Result<bool, String>;
}

/// Every target, in a fixed order.
pub fn all() -> Vec<Box<dyn Target>> {
    vec![
        Box::new(PositionText::<Antarctos>::new("antarctos-position")),
        Box::new(PositionText::<IceAge>::new("iceage-position")),
        Box::new(MoveText::<Antarctos>::new("antarctos-move")),
        Box::new(MoveText::<IceAge>::new("iceage-move")),
        Box::new(Records::<Antarctos>::new("pdn")),
        Box::new(Records::<IceAge>::new("pgn")),
        Box::new(ServerJson::new()),
    ]
}

/// The lines of the `testdata/positions` files and the positions of `testdata/records`
/// FEN tags, for `V` when they read.
fn known_positions<V: Variant>() -> Vec<String> {
    let mut out = Vec::new();
    let dir = crate::testdata().join("positions");
    for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let first = line.split('|').next().unwrap_or("").trim();
            if V::parse_position(first).is_ok() {
                out.push(first.to_string());
            }
        }
    }
    out
}

/// Record files of `testdata` with the given extension (recursively).
fn record_files(extension: &str) -> Vec<String> {
    fn walk(dir: &std::path::Path, extension: &str, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, extension, out);
            } else if path.extension().is_some_and(|e| e == extension)
                && let Ok(bytes) = std::fs::read(&path)
            {
                out.push(records::decode(&bytes).text);
            }
        }
    }
    let mut out = Vec::new();
    walk(&crate::testdata(), extension, &mut out);
    out
}

/// A generator of fixed seed for the seeds, so that a run is reproducible.
fn seed_rng() -> rand_chacha::ChaCha8Rng {
    use rand::SeedableRng;
    rand_chacha::ChaCha8Rng::seed_from_u64(11)
}

/// Position text (A18, C12).
pub struct PositionText<V> {
    name: &'static str,
    _variant: std::marker::PhantomData<V>,
}

impl<V> PositionText<V> {
    fn new(name: &'static str) -> Self {
        PositionText {
            name,
            _variant: std::marker::PhantomData,
        }
    }
}

const POSITION_WORDS: &[&str] = &[
    "W", "B", ":W", ":B", ":I", "K", "a1", "c3", "h8", "b1", "i9", "a0", "w", "b", "-", "KQkq",
    "*", "8", "/", "e3", "d6", "0", "1", "rnbqkbnr", "PPPPPPPP", "********", "p", "P", "k",
];

impl<V: Variant> Target for PositionText<V> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn seeds(&self) -> Vec<String> {
        let mut rng = seed_rng();
        let mut out = known_positions::<V>();
        out.push(V::position_text(&V::start_position()));
        for _ in 0..40 {
            out.push(V::position_text(&generate::random_position::<V>(
                &mut rng, 80,
            )));
        }
        out
    }

    fn dictionary(&self) -> &'static [&'static str] {
        POSITION_WORDS
    }

    fn run(&self, input: &str, _: &mut Mutator) -> Result<bool, String> {
        let Ok(pos) = V::parse_position(input) else {
            return Ok(false);
        };
        let text = V::position_text(&pos);
        let again = V::parse_position(&text)
            .map_err(|e| format!("written position text {text:?} does not read: {e}"))?;
        if again != pos {
            return Err(format!("position text {text:?} reads as another position"));
        }
        if V::position_text(&again) != text {
            return Err(format!(
                "position text {text:?} is written differently the second time"
            ));
        }
        let _ = V::outcome(&pos);
        for mv in V::legal_moves(&pos).iter().take(64) {
            let written = V::move_text(&pos, mv);
            match V::parse_move(&pos, &written) {
                Ok(back) if &back == mv => {}
                Ok(_) => {
                    return Err(format!(
                        "move text {written:?} in {text:?} reads as another move"
                    ));
                }
                Err(e) => {
                    return Err(format!(
                        "move text {written:?} in {text:?} does not read: {e}"
                    ));
                }
            }
            let next =
                V::play(&pos, mv).map_err(|e| format!("legal move {written:?} refused: {e}"))?;
            let next_text = V::position_text(&next);
            if V::parse_position(&next_text).is_err() {
                return Err(format!(
                    "the position after {written:?} in {text:?} writes {next_text:?}, which does not read"
                ));
            }
        }
        Ok(true)
    }
}

/// Move text (A16-A17, C13) in a position: `position\nmove`.
pub struct MoveText<V> {
    name: &'static str,
    _variant: std::marker::PhantomData<V>,
}

impl<V> MoveText<V> {
    fn new(name: &'static str) -> Self {
        MoveText {
            name,
            _variant: std::marker::PhantomData,
        }
    }
}

const MOVE_WORDS: &[&str] = &[
    "x", "-", ":", "#", "+", "!", "?", "=Q", "=K", "O-O", "0-0-0", "e.p.", "c3", "d4", "e5", "b6",
    "a7", "h8", "N", "B", "R", "Q", "K", "P", "e2e4", "e7e8q", "cb6", "22-18", "9x18x27", "\u{a0}",
];

impl<V: Variant> Target for MoveText<V> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn seeds(&self) -> Vec<String> {
        let mut rng = seed_rng();
        let mut positions = known_positions::<V>();
        for _ in 0..30 {
            positions.push(V::position_text(&generate::random_position::<V>(
                &mut rng, 60,
            )));
        }
        let mut out = Vec::new();
        for text in positions {
            let Ok(pos) = V::parse_position(&text) else {
                continue;
            };
            for mv in V::legal_moves(&pos).iter().take(6) {
                out.push(format!("{text}\n{}", V::move_text(&pos, mv)));
                out.push(format!("{text}\n{}", V::move_id(&pos, mv)));
            }
        }
        out
    }

    fn dictionary(&self) -> &'static [&'static str] {
        MOVE_WORDS
    }

    fn run(&self, input: &str, _: &mut Mutator) -> Result<bool, String> {
        let (position, text) = input.split_once('\n').unwrap_or(("", input));
        let pos = V::parse_position(position).unwrap_or_else(|_| V::start_position());
        let Ok(mv) = V::parse_move(&pos, text) else {
            return Ok(false);
        };
        V::play(&pos, &mv).map_err(|e| format!("{text:?} reads as an illegal move: {e}"))?;
        let written = V::move_text(&pos, &mv);
        match V::parse_move(&pos, &written) {
            Ok(back) if back == mv => Ok(true),
            _ => Err(format!(
                "{text:?} reads, but its text {written:?} does not read back"
            )),
        }
    }
}

/// Record files (A19, C14).
pub struct Records<V> {
    name: &'static str,
    _variant: std::marker::PhantomData<V>,
}

impl<V> Records<V> {
    fn new(name: &'static str) -> Self {
        Records {
            name,
            _variant: std::marker::PhantomData,
        }
    }
}

const RECORD_WORDS: &[&str] = &[
    "[Event \"",
    "\"]",
    "[FEN \"",
    "[Variant \"Ice Age\"]",
    "[Variant \"Standard\"]",
    "[GameType \"25\"]",
    "[GameType \"20\"]",
    "[SetUp \"1\"]",
    "[Result \"1-0\"]",
    "{",
    "}",
    "(",
    ")",
    ";",
    "\n\n",
    "\n[",
    "%",
    "$1",
    "$300",
    "!?",
    "(!?)",
    "1.",
    "12...",
    "1. ...",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "2-0",
    "0-0",
    "O-O",
    "{Ice Age: Rh1 frozen}",
    "{Ice Age}",
    "\\\"",
    "\\\\",
    "\u{a0}",
    "\u{feff}",
    "22-18",
    "9x18x27",
    "c3-d4",
    "Nxf3",
    "exd3",
    "e8=Q#",
];

impl<V: RecordRules> Target for Records<V> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn seeds(&self) -> Vec<String> {
        let mut rng = seed_rng();
        let mut out = record_files(V::RECORD_EXTENSION);
        for _ in 0..30 {
            out.push(V::write_record(&generate::random_record::<V>(&mut rng)));
        }
        out
    }

    fn dictionary(&self) -> &'static [&'static str] {
        RECORD_WORDS
    }

    fn run(&self, input: &str, mutator: &mut Mutator) -> Result<bool, String> {
        let reading = records::read::<V>(input);
        let mut accepted = false;
        for game in reading.games.iter().flatten() {
            accepted = true;
            let written = records::write(game);
            let back = records::read::<V>(&written);
            let [Ok(again)] = &back.games[..] else {
                return Err(format!(
                    "a game read and written does not read back as one game:\n{written}"
                ));
            };
            if (&again.start, again.main_line(), again.result)
                != (&game.start, game.main_line(), game.result)
            {
                return Err(format!(
                    "a game read and written reads back as another game:\n{written}"
                ));
            }
            if records::write(again) != written {
                return Err(format!(
                    "a game is written differently the second time:\n{written}"
                ));
            }
        }
        // The same text as legacy bytes, mutated at the byte level.
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(input);
        let mut bytes = bytes.into_owned();
        if mutator.one_in(2) {
            mutator.mutate_bytes(&mut bytes);
        }
        let _ = records::read_bytes::<V>(&bytes);
        Ok(accepted)
    }
}

/// The JSON bodies of the site's POST endpoints, sent through the real router (SQLite in
/// a temporary file) to a local game: create, move, draw, resign, takeback, abort, rematch,
/// join. They go as a bot sends them (issue 9): a token the server issued in
/// `X-Icebound-Player` and `content-type: application/json`, with rate limits off, so the
/// fuzzed bodies reach the game logic rather than the edge's refusals.
pub struct ServerJson {
    inner: Mutex<Option<Site>>,
}

/// The site under test.
struct Site {
    runtime: tokio::runtime::Runtime,
    router: axum::Router,
    /// The player token the site issued to the fuzzer.
    token: String,
    game: String,
    /// Inputs sent; a fresh game is opened every [`FRESH_GAME_EVERY`] (a fuzzed body soon
    /// resigns or finishes the game).
    sent: u64,
    _dir: TempDir,
}

/// How many inputs one local game serves. Small: most bodies reach `resign`, and before a
/// game's second move a resignation aborts it (docs/api.md), after which every endpoint but
/// `join` refuses; a fresh game lets the next inputs reach the moves and offers again.
const FRESH_GAME_EVERY: u64 = 10;

impl Site {
    /// Opens a local game of `variant`; its id.
    fn open_game(
        runtime: &tokio::runtime::Runtime,
        router: &axum::Router,
        token: &str,
        variant: &str,
    ) -> String {
        let body = format!(r#"{{"variant":"{variant}","opponent":"local"}}"#);
        let created = runtime.block_on(post(router, token, "/api/games", &body));
        serde_json::from_str::<serde_json::Value>(&created.1)
            .ok()
            .and_then(|v| v.get("id").and_then(|i| i.as_str()).map(String::from))
            .unwrap_or_else(|| panic!("a local game is created: {created:?}"))
    }
}

/// A directory removed when dropped.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The token the site issues to a first request (its `Set-Cookie`), as a bot takes it.
fn issued_token(runtime: &tokio::runtime::Runtime, router: &axum::Router) -> String {
    use tower::ServiceExt;
    let request = axum::http::Request::builder()
        .uri("/api/stats")
        .body(axum::body::Body::empty())
        .expect("request");
    let response = runtime
        .block_on(router.clone().oneshot(request))
        .expect("infallible");
    response
        .headers()
        .get_all(axum::http::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| {
            let (name, rest) = c.split_once('=')?;
            (name.trim_start_matches("__Host-") == site_http::player::COOKIE_NAME)
                .then(|| rest.split(';').next().unwrap_or("").to_string())
        })
        .expect("the site issues a player token in a cookie")
}

const JSON_WORDS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "null",
    "true",
    "false",
    "0",
    "-1",
    "1e999",
    "3.5",
    "\"variant\"",
    "\"opponent\"",
    "\"level\"",
    "\"color\"",
    "\"fen\"",
    "\"move\"",
    "\"ply\"",
    "\"action\"",
    "\"antarctos\"",
    "\"iceage\"",
    "\"local\"",
    "\"friend\"",
    "\"white\"",
    "\"black\"",
    "\"random\"",
    "\"offer\"",
    "\"accept\"",
    "\"decline\"",
    "\"c3-d4\"",
    "\"Nxf3\"",
    "\"e2e4\"",
    "\"W:Wb4,e3,f2:Bc7,d6:Ic3\"",
    "\"\\u0000\"",
    "\"\\ud800\"",
    "4294967296",
];

impl ServerJson {
    fn new() -> ServerJson {
        ServerJson {
            inner: Mutex::new(None),
        }
    }

    fn start() -> Site {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("tokio runtime");
        let dir = std::env::temp_dir().join(format!(
            "icebound-fuzz-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let url = format!("sqlite://{}?mode=rwc", dir.join("fuzz.db").display());
        let site = runtime
            .block_on(server::Site::open_with(
                &url,
                server::SiteOptions {
                    rate_limits: server::options::RateLimits::off(),
                    ..server::SiteOptions::default()
                },
            ))
            .expect("the site opens");
        let router = site.router();
        let token = issued_token(&runtime, &router);
        let game = Site::open_game(&runtime, &router, &token, "antarctos");
        Site {
            runtime,
            router,
            token,
            game,
            sent: 0,
            _dir: TempDir(dir),
        }
    }
}

/// POSTs `body` to `path` as the player of `token`; the status and the body of the answer.
async fn post(router: &axum::Router, token: &str, path: &str, body: &str) -> (u16, String) {
    use tower::ServiceExt;
    let request = axum::http::Request::builder()
        .method("POST")
        .uri(path)
        .header("content-type", "application/json")
        .header(site_http::player::HEADER_NAME, token)
        .body(axum::body::Body::from(body.to_string()))
        .expect("request");
    let response = router.clone().oneshot(request).await.expect("infallible");
    let status = response.status().as_u16();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap_or_default();
    (status, String::from_utf8_lossy(&bytes).into_owned())
}

impl Target for ServerJson {
    fn name(&self) -> &'static str {
        "server-json"
    }

    fn seeds(&self) -> Vec<String> {
        [
            r#"{"variant":"antarctos","opponent":"local"}"#,
            r#"{"variant":"iceage","opponent":"friend","color":"random"}"#,
            r#"{"variant":"antarctos","opponent":"local","fen":"W:Wb4,e3,f2:Bc7,d6:Ic3"}"#,
            r#"{"variant":"iceage","opponent":"local","fen":"7k/8/8/8/1n6/8/4P3/4K3 b - - 0 20"}"#,
            r#"{"move":"c3-d4"}"#,
            r#"{"move":"c3-d4","ply":0}"#,
            r#"{"move":"f6-e5","ply":1}"#,
            r#"{"action":"offer"}"#,
            r#"{"action":"accept"}"#,
            r#"{}"#,
        ]
        .into_iter()
        .map(String::from)
        .collect()
    }

    fn dictionary(&self) -> &'static [&'static str] {
        JSON_WORDS
    }

    fn run(&self, input: &str, _: &mut Mutator) -> Result<bool, String> {
        let mut guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let site = guard.get_or_insert_with(ServerJson::start);
        site.sent += 1;
        if site.sent.is_multiple_of(FRESH_GAME_EVERY) {
            let variant = if site.sent.is_multiple_of(2 * FRESH_GAME_EVERY) {
                "antarctos"
            } else {
                "iceage"
            };
            site.game = Site::open_game(&site.runtime, &site.router, &site.token, variant);
        }
        let id = site.game.clone();
        let paths = [
            format!("/api/games/{id}/moves"),
            format!("/api/games/{id}/draw"),
            format!("/api/games/{id}/resign"),
            format!("/api/games/{id}/takeback"),
            format!("/api/games/{id}/abort"),
            format!("/api/games/{id}/rematch"),
            format!("/api/join/{id}"),
            // Engine games would queue searches that outlive the run: a body that names the
            // engine is not sent to the create endpoint.
            "/api/games".to_string(),
        ];
        let mut accepted = false;
        for path in paths {
            if path == "/api/games" && input.contains("engine") {
                continue;
            }
            let (status, body) =
                site.runtime
                    .block_on(post(&site.router, &site.token, &path, input));
            if status >= 500 {
                return Err(format!("POST {path} answered {status}: {body}"));
            }
            accepted |= status < 300;
        }
        Ok(accepted)
    }
}
