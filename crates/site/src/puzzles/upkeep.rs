//! The start-up check of the stored puzzles (issue 39): a row that does not read (its game,
//! position, moves, themes or numbers; a tester mangled rows with SQL and got 500s) is
//! retired with what is wrong, logged, and the others are served. Puzzles are not proven
//! again here (`icebound puzzles check` does that for a file): reading them is fast enough
//! for every start.

use games::with_game;
use puzzles::Theme;
use site_model::error::{ErrorCode, SiteError};
use site_model::state::GameKind;
use site_store::PuzzleText;

use super::Puzzles;
use game::Variant;

impl Puzzles {
    /// Reads every puzzle in service and retires those that do not read, each with the
    /// fault as its reason (`start-up check: ...`). Returns the retired ones' ids and faults.
    ///
    /// # Errors
    /// Storage.
    pub async fn check_stored(&self) -> Result<Vec<(String, String)>, SiteError> {
        let texts = self.store.puzzle_texts().await?;
        let faults = tokio::task::spawn_blocking(move || {
            texts
                .into_iter()
                .filter_map(|t| fault(&t).err().map(|why| (t.id, why)))
                .collect::<Vec<_>>()
        })
        .await
        .map_err(|e| SiteError::new(ErrorCode::Internal, format!("checking puzzles: {e}")))?;
        for (id, why) in &faults {
            self.store
                .retire_puzzle(id, &format!("start-up check: {why}"))
                .await?;
        }
        Ok(faults)
    }
}

/// What is wrong with a stored puzzle, if anything.
fn fault(t: &PuzzleText) -> Result<(), String> {
    let variant: GameKind = t
        .variant
        .parse()
        .map_err(|_| format!("variant: unknown game '{}'", game::excerpt(&t.variant)))?;
    if !puzzles::valid_id(&t.id) {
        return Err("id: not 1 to 64 letters, digits, '_' or '-'".into());
    }
    for (name, value) in ["rating", "rd", "volatility"].iter().zip(&t.rating) {
        let ok = value
            .trim()
            .parse::<f64>()
            .is_ok_and(|v| v.is_finite() && v > 0.0);
        if !ok {
            return Err(format!(
                "{name}: '{}' is not a positive number",
                game::excerpt(value)
            ));
        }
    }
    let length: u32 = t
        .length
        .trim()
        .parse()
        .map_err(|_| format!("length: '{}' is not a number", game::excerpt(&t.length)))?;
    for theme in t.themes.split_whitespace() {
        theme.parse::<Theme>().map_err(|e| format!("themes: {e}"))?;
    }
    with_game!(variant, G => {
        let start = G::parse_position(&t.fen).map_err(|e| format!("fen: {e}"))?;
        let texts: Vec<String> = t.moves.split_whitespace().map(str::to_string).collect();
        let line = puzzles::parse_moves::<G>(&start, &texts).map_err(|e| format!("moves: {e}"))?;
        if line.is_empty() {
            return Err("moves: none".into());
        }
        if (line.len() as u32).div_ceil(2) != length {
            return Err(format!("length: {length} where the moves make {}", line.len().div_ceil(2)));
        }
    });
    Ok(())
}
