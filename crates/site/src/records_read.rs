//! `POST /api/records/read` (issue 14, the analysis board's import): reads a PGN (Ice Age
//! Chess, C14) or PDN (Antarctos, A19) file of one or more games with the rules crates' readers
//! and answers each game as a move tree (main line, variations, comments) with the position after
//! every move, and each game that could not be read as an error naming the game, the line and
//! the move. Nothing is stored.

use game::records::RecordRules;
use game::{Color, Line, Record};
use serde::Serialize;

use crate::live_game::{SiteVariant, square_name};
use crate::view::IceAgeView;
use site_model::error::SiteError;
use site_model::state::GameKind;

/// Largest record text accepted, bytes (the route's body limit is a little larger).
pub const MAX_RECORD_TEXT: usize = 256 * 1024;
/// Most games answered from one file; the others are reported as one error.
pub const MAX_GAMES: usize = 200;

/// What `POST /api/records/read` asks, its game named (site-http parses the body into it).
#[derive(Debug, Clone)]
pub struct ReadRequest {
    /// The game: Antarctos reads PDN, Ice Age Chess PGN.
    pub variant: GameKind,
    /// The file's text.
    pub text: String,
    /// With each move's position and squares ([`NodeView`]); `false`: the lean answer
    /// ([`LeanNode`]), about 2.1 times the text, for whole files under the 4x cap.
    pub positions: bool,
}

/// One move of a game's tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NodeView {
    /// Machine form.
    pub id: String,
    /// Canonical notation.
    pub text: String,
    /// Every square visited.
    pub path: Vec<String>,
    /// The position after the move.
    pub fen: String,
    /// Move number of the mover (a record's `12.` or `12...`).
    pub number: u32,
    /// The mover.
    pub color: Color,
    /// What happened besides the move (the Ice Age it brought).
    pub event: Option<String>,
    /// Ice Age Chess: what the Ice Age this move brought did (`positions::NextView`'s
    /// `ice_age`), worked out by the rules, not read from the record's comment. Sent only for
    /// such a move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ice_age: Option<IceAgeView>,
    /// Its NAGs in the order written (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6, `$n` n).
    pub nags: Vec<u8>,
    /// The comments after the move.
    pub comments: Vec<String>,
    /// Alternatives to this move, each a line starting from the position before it.
    pub variations: Vec<Vec<NodeView>>,
}

/// One game read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameRead {
    /// 1-based game of the file (the errors count the same way).
    pub game: usize,
    /// The record's tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The position before the first move.
    pub start_fen: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The main line.
    pub moves: Vec<NodeView>,
}

/// A game that could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadError {
    /// 1-based game of the file.
    pub game: usize,
    /// 1-based line of the file, when known.
    pub line: Option<usize>,
    /// What is wrong, naming the game, the move and the line.
    pub message: String,
    /// The full-move number of the move that could not be played, when the error is a move's.
    pub move_number: Option<u32>,
    /// Its side.
    pub side: Option<Color>,
    /// What is wrong, without the game, move and line (the page words those itself).
    pub reason: String,
}

impl ReadError {
    /// The error of a game the reader refused.
    pub fn of(e: &game::RecordError) -> ReadError {
        ReadError {
            game: e.game,
            line: e.line,
            message: e.to_string(),
            move_number: e.move_number,
            side: e.side,
            reason: e.message.clone(),
        }
    }

    /// An error about the file, not one game's moves.
    pub fn file(game: usize, message: String) -> ReadError {
        ReadError {
            game,
            line: None,
            reason: message.clone(),
            message,
            move_number: None,
            side: None,
        }
    }
}

/// One warning of the reader.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WarningView {
    /// 1-based game of the file; `null` for the whole file (its encoding).
    pub game: Option<usize>,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// What to know, in words.
    pub message: String,
}

/// `POST /api/records/read`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReadView {
    /// The games read, in file order.
    pub games: Vec<GameRead>,
    /// The games that could not be read, in file order.
    pub errors: Vec<ReadError>,
    /// What was read with a remark, in file order: a variation cut at a move that cannot be
    /// played, a repeated tag, text outside any game.
    pub warnings: Vec<WarningView>,
}

/// One move of the lean answer (`"positions": false`): what the record says, without what the
/// rules work out (id, squares, position, number, side). Empty fields are left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeanNode {
    /// Canonical notation.
    pub text: String,
    /// What happened besides the move (the Ice Age it brought).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// NAGs, as [`NodeView::nags`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u8>,
    /// The comments after the move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// Alternatives to this move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<Vec<LeanNode>>,
}

impl From<NodeView> for LeanNode {
    fn from(n: NodeView) -> LeanNode {
        LeanNode {
            text: n.text,
            event: n.event,
            nags: n.nags,
            comments: n.comments,
            variations: n
                .variations
                .into_iter()
                .map(|v| v.into_iter().map(LeanNode::from).collect())
                .collect(),
        }
    }
}

/// One game of the lean answer: as [`GameRead`], its moves [`LeanNode`]s.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeanGame {
    /// 1-based game of the file.
    pub game: usize,
    /// The record's tags, in file order.
    pub tags: Vec<(String, String)>,
    /// The position before the first move; left out when it is the game's start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_fen: Option<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// The main line.
    pub moves: Vec<LeanNode>,
}

/// The lean answer: `{"games": [LeanGame], "errors": [ReadError], "warnings": [WarningView]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LeanView {
    /// The games read, in file order.
    pub games: Vec<LeanGame>,
    /// The games that could not be read, in file order.
    pub errors: Vec<ReadError>,
    /// As [`ReadView::warnings`].
    pub warnings: Vec<WarningView>,
}

/// `view` as its lean answer, for game `V`.
fn lean<V: SiteVariant>(view: ReadView) -> LeanView {
    let initial = V::position_text(&V::start_position());
    LeanView {
        games: view
            .games
            .into_iter()
            .map(|g| LeanGame {
                game: g.game,
                tags: g.tags,
                start_fen: (g.start_fen != initial).then_some(g.start_fen),
                result: g.result,
                moves: g.moves.into_iter().map(LeanNode::from).collect(),
            })
            .collect(),
        errors: view.errors,
        warnings: view.warnings,
    }
}

fn line_view<V: SiteVariant>(start: &V::Position, line: &Line<V::Move>) -> Vec<NodeView> {
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(line.nodes.len());
    for node in &line.nodes {
        // The reader replayed every move: each is legal where it stands.
        let Ok(next) = V::play(&pos, &node.mv) else {
            break;
        };
        out.push(NodeView {
            id: V::move_id(&pos, &node.mv),
            text: V::move_text(&pos, &node.mv),
            path: V::move_path(&node.mv)
                .into_iter()
                .map(square_name)
                .collect(),
            fen: V::position_text(&next),
            number: V::fullmove_number(&pos),
            color: V::side_to_move(&pos),
            event: V::event(&pos, &node.mv),
            ice_age: V::facts(&pos, &node.mv).ice_age,
            nags: node.notes.nags.clone(),
            comments: node.notes.comments.clone(),
            variations: node
                .notes
                .variations
                .iter()
                .map(|v| line_view::<V>(&pos, v))
                .collect(),
        });
        pos = next;
    }
    out
}

/// Game `game` (1-based) of a file as the page opens it: tags, start, result and move tree.
pub(crate) fn game_read<V: SiteVariant>(game: usize, record: &Record<V>) -> GameRead {
    GameRead {
        game,
        tags: record.tags.clone(),
        start_fen: V::position_text(&record.start),
        result: record.result.to_string(),
        moves: line_view::<V>(&record.start, &record.main_line()),
    }
}

fn read<V: SiteVariant + RecordRules>(text: &str) -> ReadView {
    let reading = game::records::read::<V>(text);
    let mut view = ReadView {
        games: Vec::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
    };
    let mut last = 0;
    for (i, entry) in reading.games.into_iter().enumerate() {
        if view.games.len() + view.errors.len() >= MAX_GAMES {
            view.errors.push(ReadError::file(
                i + 1,
                format!("only the first {MAX_GAMES} games of a file are read"),
            ));
            break;
        }
        last = i + 1;
        match entry {
            Ok(record) => view.games.push(game_read(i + 1, &record)),
            Err(e) => view.errors.push(ReadError::of(&e)),
        }
    }
    view.warnings = reading
        .warnings
        .into_iter()
        .filter(|w| w.game.is_none_or(|g| g <= last))
        .map(|w| WarningView {
            game: w.game,
            line: w.line,
            message: w.message,
        })
        .collect();
    view
}

/// 413 for a record file of `bytes` bytes, past [`MAX_RECORD_TEXT`].
pub(crate) fn too_large(bytes: usize) -> SiteError {
    SiteError::new(
        site_model::error::ErrorCode::TooLarge,
        format!("a record file of {bytes} bytes (at most {MAX_RECORD_TEXT})"),
    )
}

/// Record files read at once: the work runs on the blocking pool, one file at a time, so that
/// reading (up to half a second for a hostile 256 KiB file) never holds the threads that serve
/// requests, sockets and moves.
const RECORD_READERS: usize = 1;

/// Runs `work` (reading or writing records) on the blocking pool behind [`RECORD_READERS`].
pub(crate) async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, SiteError> {
    static READERS: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    let gate = READERS.get_or_init(|| tokio::sync::Semaphore::new(RECORD_READERS));
    let _permit = gate.acquire().await.map_err(|_| {
        SiteError::new(
            site_model::error::ErrorCode::TooMany,
            "the server is shutting down",
        )
    })?;
    tokio::task::spawn_blocking(work).await.map_err(|e| {
        tracing::error!(error = %e, "reading a record failed");
        SiteError::new(
            site_model::error::ErrorCode::Internal,
            "the record could not be read",
        )
    })
}

/// How many times its text an answer may be (issue 41: a 240 KB file was read back as 8.8 MB).
pub const ANSWER_RATIO: usize = 4;
/// The answer every text may have, however short (one long game with its variations).
pub const MIN_ANSWER: usize = 64 * 1024;

/// The longest answer (JSON bytes) to a record text of `text_bytes` bytes: [`ANSWER_RATIO`]
/// times it, at least [`MIN_ANSWER`] (at most 1 MiB, for the longest text).
pub fn max_answer(text_bytes: usize) -> usize {
    text_bytes.saturating_mul(ANSWER_RATIO).max(MIN_ANSWER)
}

/// `POST /api/records/read`: the [`ReadView`] as JSON text (the games read and the errors of
/// the others). 400 for an unknown variant, 413 `too_large` past [`MAX_RECORD_TEXT`] bytes,
/// 413 `answer_too_large` when the answer would be longer than [`max_answer`] of the text.
pub async fn read_records(req: ReadRequest) -> Result<String, SiteError> {
    let variant = req.variant;
    let bytes = req.text.len();
    if bytes > MAX_RECORD_TEXT {
        return Err(too_large(bytes));
    }
    let positions = req.positions;
    let json = off_thread(move || {
        games::with_game!(variant, G => {
            let view = read::<G>(&req.text);
            if positions {
                serde_json::to_string(&view)
            } else {
                serde_json::to_string(&lean::<G>(view))
            }
        })
    })
    .await?
    .map_err(|e| {
        SiteError::new(
            site_model::error::ErrorCode::Internal,
            format!("the answer could not be written: {e}"),
        )
    })?;
    let most = max_answer(bytes);
    if json.len() > most {
        return Err(SiteError::new(
            site_model::error::ErrorCode::AnswerTooLarge,
            format!(
                "the answer would be {} bytes, more than {ANSWER_RATIO} times the record's \
                 {bytes} bytes of text (at most {most}): {}",
                json.len(),
                if positions {
                    "ask without the positions (\"positions\": false), or send fewer games at a time"
                } else {
                    "send fewer games at a time"
                }
            ),
        ));
    }
    Ok(json)
}
