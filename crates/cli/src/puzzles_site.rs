//! `icebound puzzles mine --database URL`: the site's database as a source of games
//! (`--from site`: its finished games, each named by its id, so that the trainer links a
//! puzzle to its game) and as the place the mined puzzles go (the trainer offers them at
//! once, beside the shipped ones).

use game::Variant;
use games::GameKind;
use server::Store;

/// An open site database: its URL as printed (no password), a small runtime for sqlx, and
/// the store.
pub struct SiteDatabase {
    url: String,
    runtime: tokio::runtime::Runtime,
    store: Store,
}

/// A game to mine: its name, start and moves.
pub type MinedGame<V> = (String, <V as Variant>::Position, Vec<<V as Variant>::Move>);

impl SiteDatabase {
    /// Opens (creating and migrating if needed) the database at `url`.
    pub fn open(url: &str) -> Result<SiteDatabase, String> {
        let shown = site_store::redacted_url(url);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("tokio runtime: {e}"))?;
        let store = runtime
            .block_on(Store::open(url))
            .map_err(|e| format!("--database {shown}: {e}"))?;
        Ok(SiteDatabase {
            url: shown,
            runtime,
            store,
        })
    }

    /// Up to `limit` finished games of `V`, oldest first, replayed from their stored moves;
    /// a game that does not replay is left out with a message on stderr.
    pub fn games<V: Variant>(
        &self,
        variant: GameKind,
        limit: usize,
    ) -> Result<Vec<MinedGame<V>>, String> {
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.runtime.block_on(async {
            let ids = self
                .store
                .finished_game_ids(variant, limit)
                .await
                .map_err(|e| format!("--database {}: {e}", self.url))?;
            let mut games = Vec::with_capacity(ids.len());
            for id in ids {
                let Some((row, moves)) = self
                    .store
                    .load_game(&id)
                    .await
                    .map_err(|e| format!("--database {}: game {id}: {e}", self.url))?
                else {
                    continue;
                };
                match replay::<V>(&row.start_fen, moves.iter().map(|m| m.move_id.as_str())) {
                    Ok((start, line)) => games.push((id, start, line)),
                    Err(e) => eprintln!("game {id} left out: {e}"),
                }
            }
            Ok(games)
        })
    }

    /// The game's puzzles stored already, each as its position and line, in their order:
    /// the mined ones must not repeat them or overlap them. A stored puzzle that does not
    /// read is left out with a message on stderr.
    pub fn puzzles<V: Variant>(&self, variant: GameKind) -> Result<Vec<MinedGame<V>>, String> {
        self.runtime.block_on(async {
            let failed = |e: site_store::StoreError| format!("--database {}: {e}", self.url);
            let (total, _) = self.store.puzzle_counts(variant).await.map_err(failed)?;
            let mut out = Vec::with_capacity(usize::try_from(total).unwrap_or(0));
            let mut ordinal = 1;
            // Ordinals run from 1 without gaps (import_puzzles); the bound is a safety net.
            while (out.len() as i64) < total && ordinal <= 2 * total + 16 {
                if let Some(p) = self
                    .store
                    .puzzle_at(variant, ordinal)
                    .await
                    .map_err(failed)?
                {
                    match replay::<V>(&p.fen, p.moves.iter().map(String::as_str)) {
                        Ok((start, line)) => out.push((p.id, start, line)),
                        Err(e) => eprintln!("stored puzzle {} left out: {e}", p.id),
                    }
                }
                ordinal += 1;
            }
            Ok(out)
        })
    }

    /// Adds the puzzles of puzzle file `csv` (game `V`) not stored yet; returns how many.
    pub fn store<V: Variant>(&self, variant: GameKind, csv: &str) -> Result<u64, String> {
        let rows = site::puzzles::shipped::rows::<V>(variant, csv)
            .map_err(|e| format!("the mined puzzles: {e}"))?;
        let now = site_store::now_ms();
        self.runtime.block_on(async {
            let added = self.store.import_puzzles(&rows, now).await;
            self.store.close().await;
            added.map_err(|e| format!("--database {}: the puzzles were not stored ({e})", self.url))
        })
    }

    /// Retires (or, with `restore`, puts back) the puzzles `ids`, saying `reason`; returns
    /// the ids that name no puzzle.
    pub fn retire(
        &self,
        ids: &[String],
        reason: &str,
        restore: bool,
    ) -> Result<Vec<String>, String> {
        self.runtime.block_on(async {
            let mut unknown = Vec::new();
            for id in ids {
                let found = if restore {
                    self.store.restore_puzzle(id).await
                } else {
                    self.store.retire_puzzle(id, reason).await
                }
                .map_err(|e| format!("--database {}: {e}", self.url))?;
                if !found {
                    unknown.push(id.clone());
                }
            }
            self.store.close().await;
            Ok(unknown)
        })
    }

    /// The URL, as printed.
    pub fn url(&self) -> &str {
        &self.url
    }
}

fn replay<'a, V: Variant>(
    fen: &str,
    ids: impl Iterator<Item = &'a str>,
) -> Result<(V::Position, Vec<V::Move>), String> {
    let start = V::parse_position(fen).map_err(|e| format!("start position: {e}"))?;
    let mut pos = start.clone();
    let mut line = Vec::new();
    for (i, id) in ids.enumerate() {
        let mv = V::parse_move(&pos, id).map_err(|e| format!("ply {} ('{id}'): {e}", i + 1))?;
        pos = V::play_unchecked(&pos, &mv);
        line.push(mv);
    }
    Ok((start, line))
}
