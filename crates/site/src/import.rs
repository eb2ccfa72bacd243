//! `POST /api/import` (issue 14): stores the games of a PGN (Ice Age Chess, C14) or PDN
//! (Antarctos, A19) file as analysis games, and `GET /api/imports/{id}` gives one back as a
//! move tree. Imported games have no seats and never enter the statistics or anyone's games
//! (their own table, store/imports.rs). Which game a file holds is found from the file:
//! the reader that reads more of its games, then its tags, then its move text.

use std::sync::Arc;

use antarctos::Antarctos;
use game::{Record, RecordError, Variant};
use iceage::IceAge;
use serde::Serialize;

use crate::live_game::SiteVariant;
use crate::play::GameService;
use crate::play::{random_token, valid_id};
pub use crate::records_read::WarningView;
use crate::records_read::{
    GameRead, MAX_GAMES, MAX_RECORD_TEXT, ReadError, game_read, off_thread, too_large,
};
use base64::Engine;
use site_model::error::{ErrorCode, SiteError};
use site_model::secrets::PlayerToken;
use site_model::state::GameKind;
use site_store::{ImportRow, now_ms};

/// What `POST /api/import` asks, its game named when given (site-http parses the body into
/// it, checking [`check_sizes`] before the name, as [`import`] does).
#[derive(Debug, Clone)]
pub struct ImportRequest {
    /// The file's text, at most [`MAX_RECORD_TEXT`] bytes (or `base64` instead).
    pub text: Option<String>,
    /// The file's bytes in base64 (standard alphabet, padded; line breaks and spaces are
    /// ignored), for a file that is not UTF-8: its encoding is guessed
    /// (`game::records::decode`, chardetng) and said in `warnings`. Not with `text`.
    pub base64: Option<String>,
    /// The game; found from the text when `None`.
    pub variant: Option<GameKind>,
}

/// One stored game of an import.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportedView {
    /// Its id: `/analysis/import/{id}` opens it, `GET /api/imports/{id}` reads it.
    pub id: String,
    /// 1-based game of the file.
    pub game: usize,
    /// The `White` tag, `?` when missing.
    pub white: String,
    /// The `Black` tag.
    pub black: String,
    /// The `Event` tag, empty when missing.
    pub event: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Moves of the main line.
    pub plies: i64,
    /// The main-line move that could not be played, when the game is opened up to the move
    /// before it (issue 41; the last good move carries a comment naming it); null otherwise.
    pub bad_move: Option<BadMoveView>,
}

/// Where an imported game stopped: its first main-line move that cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadMoveView {
    /// 1-based ply of the bad move (the game keeps the `ply - 1` before it).
    pub ply: usize,
    /// Full-move number.
    pub move_number: Option<u32>,
    /// `white` or `black`.
    pub side: Option<&'static str>,
    /// 1-based line of the file.
    pub line: Option<usize>,
    /// The move as written.
    pub text: String,
    /// Why it cannot be played.
    pub message: String,
    /// Main-line moves left out, the bad one included.
    pub left_out: usize,
}

/// `POST /api/import`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportView {
    /// The game the file holds.
    pub variant: GameKind,
    /// The games stored, in file order.
    pub games: Vec<ImportedView>,
    /// The games that could not be read (game, line, what is wrong naming the move).
    pub errors: Vec<ReadError>,
    /// What was read but deserves a word (a guessed encoding, a variation cut at an illegal
    /// move, a result that disagrees with the position), in file order.
    pub warnings: Vec<WarningView>,
}

/// `GET /api/imports/{id}`'s answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ImportedGameView {
    /// Its id.
    pub id: String,
    /// The game.
    pub variant: GameKind,
    /// The game as read: tags, start, result and move tree (comments and variations).
    pub record: GameRead,
}

fn tag<V: Variant>(record: &Record<V>, name: &str, missing: &str) -> String {
    record
        .tag(name)
        .filter(|v| !v.trim().is_empty())
        .unwrap_or(missing)
        .to_string()
}

/// The games and errors of `text` read as `V`, the stored rows of the games (at most
/// [`MAX_GAMES`] games or errors in all; the rest is one error).
fn rows_of<V: SiteVariant>(
    variant: GameKind,
    entries: Vec<Result<Record<V>, RecordError>>,
    cut: &[game::records::BadMove],
    importer: &str,
) -> (Vec<ImportRow>, Vec<ImportedView>, Vec<ReadError>) {
    let (mut rows, mut games, mut errors) = (Vec::new(), Vec::new(), Vec::new());
    let now = now_ms();
    for (i, entry) in entries.into_iter().enumerate() {
        if games.len() + errors.len() >= MAX_GAMES {
            errors.push(ReadError::file(
                i + 1,
                format!("only the first {MAX_GAMES} games of a file are imported"),
            ));
            break;
        }
        match entry {
            Ok(record) => {
                let row = ImportRow {
                    id: random_token(10),
                    variant,
                    white: tag(&record, "White", "?"),
                    black: tag(&record, "Black", "?"),
                    event: tag(&record, "Event", ""),
                    result: record.result.to_string(),
                    plies: record.main_line().nodes.len() as i64,
                    record: V::write_record(&record),
                    importer: importer.to_string(),
                    created_at: now,
                };
                games.push(ImportedView {
                    id: row.id.clone(),
                    game: i + 1,
                    white: row.white.clone(),
                    black: row.black.clone(),
                    event: row.event.clone(),
                    result: row.result.clone(),
                    plies: row.plies,
                    bad_move: cut
                        .iter()
                        .find(|c| c.error.game == i + 1)
                        .map(|c| BadMoveView {
                            ply: c.kept + 1,
                            move_number: c.error.move_number,
                            side: c.error.side.map(|c| match c {
                                game::Color::White => "white",
                                game::Color::Black => "black",
                            }),
                            line: c.error.line,
                            text: game::excerpt(&c.text),
                            message: c.error.message.clone(),
                            left_out: c.left_out,
                        }),
                });
                rows.push(row);
            }
            Err(e) => errors.push(ReadError::of(&e)),
        }
    }
    (rows, games, errors)
}

/// Whether `token` (a move-number prefix removed) is checkers move text: squares joined by
/// `-`, `:` or `x` (`c3-d4`, `e3:g5:e7`).
fn checkers_move(token: &str) -> bool {
    let token = token.trim_matches(['(', ')', '{', '}', ',', ';']);
    if numeric_checkers_move(token) {
        return true;
    }
    let token = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let b = token.trim_end_matches(['!', '?', '+', '#']).as_bytes();
    let square = |i: usize| {
        b.get(i).is_some_and(|c| (b'a'..=b'h').contains(c))
            && b.get(i + 1).is_some_and(|c| (b'1'..=b'8').contains(c))
    };
    if b.len() < 5 || (b.len() - 2) % 3 != 0 {
        return false;
    }
    (0..b.len()).step_by(3).all(|i| {
        square(i) && (i + 2 == b.len() || matches!(b.get(i + 2), Some(b'-' | b':' | b'x')))
    })
}

/// Whether `token` is draughts move text in numbers (`32-28`, `2.28x19`, `11:22:31`): a move
/// number glued in front is allowed.
fn numeric_checkers_move(token: &str) -> bool {
    let token = token.trim_end_matches(['!', '?', '*']);
    let token = match token.rfind('.') {
        Some(i) => &token[i + 1..],
        None => token,
    };
    let parts: Vec<&str> = token.split(['-', 'x', ':']).collect();
    parts.len() >= 2
        && parts
            .iter()
            .all(|p| (1..=2).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
        && !matches!(token, "1-0" | "0-1")
}

/// The game `text` holds: the one whose reader reads more of its games; on a tie, its tags
/// (`[GameType]` is PDN's, `[Variant]` PGN's), then whether most move tokens are checkers
/// moves.
pub fn detect(text: &str) -> GameKind {
    let read = |n: Vec<bool>| n.into_iter().filter(|ok| *ok).count();
    let antarctos = read(
        Antarctos::read_records(text)
            .iter()
            .map(Result::is_ok)
            .collect(),
    );
    let iceage = read(
        IceAge::read_records(text)
            .iter()
            .map(Result::is_ok)
            .collect(),
    );
    if antarctos != iceage {
        return if antarctos > iceage {
            GameKind::Antarctos
        } else {
            GameKind::IceAge
        };
    }
    // PDN's tag, or a draughts position (`[FEN "W:W21,22:B1,2"]`).
    if text.contains("[GameType")
        || ["[FEN \"W:", "[FEN \"B:", "[FEN \"?:"]
            .iter()
            .any(|t| text.contains(t))
    {
        return GameKind::Antarctos;
    }
    if text.contains("[Variant") {
        return GameKind::IceAge;
    }
    // The move words as the readers see them: a tag followed by moves on its line, a `%` line
    // or a comment holds none of its words.
    let words = game::records::move_words(text, game::records::Dialect::Pdn);
    let moves = words.iter().map(String::as_str).filter(|t| {
        t.bytes().any(|b| b.is_ascii_alphabetic())
            || numeric_checkers_move(t.trim_matches(['(', ')']))
    });
    let (mut checkers, mut all) = (0usize, 0usize);
    for t in moves {
        all += 1;
        checkers += usize::from(checkers_move(t));
    }
    if all > 0 && checkers * 2 > all {
        GameKind::Antarctos
    } else {
        GameKind::IceAge
    }
}

/// 413 when the text, or the bytes the base64 holds, pass [`MAX_RECORD_TEXT`] bytes.
pub fn check_sizes(text: Option<&str>, base64: Option<&str>) -> Result<(), SiteError> {
    if let Some(t) = text
        && t.len() > MAX_RECORD_TEXT
    {
        return Err(too_large(t.len()));
    }
    // Base64 holds 3 bytes in 4 characters; line breaks and spaces are no part of it.
    if let Some(b) = base64 {
        let symbols = b.bytes().filter(|c| !c.is_ascii_whitespace()).count();
        if symbols / 4 * 3 > MAX_RECORD_TEXT + 3 {
            return Err(too_large(symbols / 4 * 3));
        }
    }
    Ok(())
}

/// `POST /api/import`: 413 past [`MAX_RECORD_TEXT`] bytes, 400 for an unknown variant or
/// for both `text` and `base64`;
/// otherwise stores every game read (all in one transaction) and answers their ids and the
/// errors of the others.
pub async fn import(
    service: &Arc<GameService>,
    token: &PlayerToken,
    req: &ImportRequest,
) -> Result<ImportView, SiteError> {
    check_sizes(req.text.as_deref(), req.base64.as_deref())?;
    if req.text.is_some() && req.base64.is_some() {
        return Err(SiteError::bad_request(
            "both `text` and `base64`: send the file once, as `text` (UTF-8) or as `base64` \
             (its bytes)",
        ));
    }
    let named = req.variant;
    let importer = token.hash().into_string();
    let (text, bytes) = (req.text.clone(), req.base64.clone());
    let (variant, rows, games, errors, warnings) = off_thread(move || {
        let mut warnings = Vec::new();
        let text = match (text, bytes) {
            (Some(t), _) => t,
            (None, Some(b)) => {
                // Line-wrapped base64 (GNU `base64`, MIME, Python's `encodebytes`) is read too.
                let symbols: Vec<u8> = b.bytes().filter(|c| !c.is_ascii_whitespace()).collect();
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(symbols)
                    .map_err(|e| SiteError::bad_request(format!("base64: {e}")))?;
                if bytes.len() > MAX_RECORD_TEXT {
                    return Err(too_large(bytes.len()));
                }
                let decoded = game::records::decode(&bytes);
                if let Some(w) = decoded.warning {
                    warnings.push(WarningView {
                        game: None,
                        line: None,
                        message: w,
                    });
                }
                decoded.text
            }
            (None, None) => {
                return Err(SiteError::bad_request(
                    "missing field `text` (or `base64`): the record file",
                ));
            }
        };
        let variant = named.unwrap_or_else(|| detect(&text));
        let (reading_warnings, (rows, games, errors)) = games::with_game!(variant, G => {
            // A game with a bad main-line move opens up to the move before it (issue 41).
            let r = game::records::read_up_to_bad_move::<G>(&text);
            (r.warnings, rows_of(variant, r.games, &r.cut, &importer))
        });
        warnings.extend(reading_warnings.into_iter().map(|w| WarningView {
            game: w.game,
            line: w.line,
            message: w.message,
        }));
        Ok((variant, rows, games, errors, warnings))
    })
    .await??;
    if games.is_empty() && errors.is_empty() {
        return Err(SiteError::bad_request(
            "the text holds no game: paste a PGN or PDN record of one or more games",
        ));
    }
    if !rows.is_empty() {
        service.store.insert_imports(&rows).await?;
    }
    Ok(ImportView {
        variant,
        games,
        errors,
        warnings,
    })
}

fn reread<V: SiteVariant>(record: &str) -> Option<GameRead> {
    let first = V::read_records(record).into_iter().next()?.ok()?;
    Some(game_read::<V>(1, &first))
}

/// `GET /api/imports/{id}`: 404 for an unknown id.
pub async fn imported(service: &GameService, id: &str) -> Result<ImportedGameView, SiteError> {
    let not_found = || SiteError::new(ErrorCode::NotFound, "no such imported game");
    if !valid_id(id) {
        return Err(not_found());
    }
    let row = service.store.load_import(id).await?.ok_or_else(not_found)?;
    let (variant, text) = (row.variant, row.record.clone());
    let record = off_thread(move || games::with_game!(variant, G => reread::<G>(&text)))
        .await?
        .ok_or_else(|| {
            // The writer's text always reads back (game's write tests); a row that does not is
            // damaged.
            tracing::error!(import = %id, "a stored imported game does not read back");
            SiteError::new(ErrorCode::Internal, "the imported game cannot be read back")
        })?;
    Ok(ImportedGameView {
        id: row.id,
        variant: row.variant,
        record,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkers_moves_are_told_from_chess_moves() {
        for t in [
            "c3-d4",
            "1.c3-d4",
            "e3:g5:e7",
            "a1xc3",
            "12.h6-g5!",
            "32-28",
            "2.28x19",
            "(11:22:31",
        ] {
            assert!(checkers_move(t), "{t}");
        }
        for t in [
            "e4", "Nf3", "exd5", "O-O", "e2-e", "c3-d4-", "1-0", "0-1", "Qxh7#", "123-4",
        ] {
            assert!(!checkers_move(t), "{t}");
        }
    }

    #[test]
    fn a_file_says_which_game_it_holds() {
        let pdn = "[Event \"x\"]\n1. c3-d4 f6-e5 2. d4xf6 *\n";
        let pgn = "[Event \"x\"]\n1. e4 e5 2. Nf3 *\n";
        assert_eq!(detect(pdn), GameKind::Antarctos);
        assert_eq!(detect(pgn), GameKind::IceAge);
        // Neither reads (an illegal first move): the move text decides.
        assert_eq!(detect("1. c3-b8 *"), GameKind::Antarctos);
        assert_eq!(detect("1. Ke8 *"), GameKind::IceAge);
        assert_eq!(detect("[GameType \"25\"]\n1. zz *"), GameKind::Antarctos);
        // Draughts in numbers (FMJD PDN), with or without a draughts position.
        assert_eq!(
            detect("1. 32-28 19-23 2.28x19 14x23 *"),
            GameKind::Antarctos
        );
        assert_eq!(
            detect("[FEN \"W:W29,13:B22,4\"]\n1. 29-24 *"),
            GameKind::Antarctos
        );
        assert_eq!(detect("1. 21-17 (1. 22-18) 12-16 *"), GameKind::Antarctos);
    }
}
