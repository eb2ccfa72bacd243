//! The games in memory: finding a game's slot (loading it from the store when needed), the
//! cache's bound, and reloading a slot after another process changed its game.

use super::*;

impl GameService {
    /// The game `id` in memory, loading it from the store when needed.
    pub async fn slot(&self, id: &str) -> Result<Arc<GameSlot>, SiteError> {
        if !valid_id(id) {
            return Err(SiteError::no_game(id));
        }
        if let Some(slot) = self.lock_slots().get(id) {
            return Ok(slot.clone());
        }
        let (mut row, moves) = self
            .store
            .load_game(id)
            .await?
            .ok_or_else(|| SiteError::no_game(id))?;
        self.rate_seats(&mut row).await;
        let game = live_game::load(row, &moves, self.time.clone()).map_err(|e| {
            tracing::error!(game = %id, error = %e, "stored game does not replay");
            SiteError::new(ErrorCode::Internal, "the stored game cannot be replayed")
        })?;
        Ok(self.insert_slot(id, game))
    }

    pub(super) fn lock_slots(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<GameSlot>>> {
        // A poisoned map is still a valid map (inserts and removes are single calls).
        self.slots.lock().unwrap_or_else(|p| p.into_inner())
    }

    pub(super) fn insert_slot(&self, id: &str, game: Box<dyn LiveGame>) -> Arc<GameSlot> {
        let mut slots = self.lock_slots();
        if slots.len() >= self.next_sweep.load(Ordering::Relaxed) {
            // Drop games nobody holds or watches; they reload from the store on demand.
            slots.retain(|_, s| in_use(s));
            // With more games in use than the bound (issue 44: 8,000 live games), sweeping at
            // every new game scanned them all each time, under this lock, through a burst of
            // thousands of creations: the next sweep waits until a quarter more are added.
            let next = MAX_CACHED_GAMES.max(slots.len() + slots.len() / 4);
            self.next_sweep.store(next, Ordering::Relaxed);
        }
        slots
            .entry(id.to_string())
            .or_insert_with(|| {
                Arc::new(GameSlot {
                    game: Mutex::new(game),
                    tx: broadcast::channel(FEED_BACKLOG).0,
                    engine_running: AtomicBool::new(false),
                    recent: Default::default(),
                    declined: Default::default(),
                })
            })
            .clone()
    }

    /// Drops game `id` from memory once it is over and nobody holds or watches it (its last
    /// socket just closed); asked for again, it reloads from the store. Without this a
    /// finished game stayed until the cache passed its bound: after issue 44's saturated run
    /// (200 games at once, 1,500 played in 20 s) they held 140-300 MB. A game in play stays:
    /// its clock and its players' return want it at hand.
    pub fn forget_if_finished(&self, id: &str) {
        let mut slots = self.lock_slots();
        let Some(slot) = slots.get(id) else {
            return;
        };
        // Under the map's lock nobody can take a new hold on it meanwhile (`in_use`); a game
        // locked by someone is in use too.
        let over = !in_use(slot)
            && slot
                .game
                .try_lock()
                .is_ok_and(|g| g.row().status != GameStatus::Ongoing);
        if over {
            slots.remove(id);
        }
    }

    /// How many games this process holds in memory.
    pub fn games_in_memory(&self) -> usize {
        self.lock_slots().len()
    }

    /// Sends the game's state, just stored, to every watcher here, and announces it to the
    /// other processes.
    pub(crate) fn broadcast(&self, slot: &GameSlot, g: &dyn LiveGame) {
        Self::broadcast_here(slot, g);
        if let Some(bus) = self.bus.get() {
            bus.announce(&g.row().id, g.row().version);
        }
    }

    /// Sends the game's state to every watcher in this process.
    pub(super) fn broadcast_here(slot: &GameSlot, g: &dyn LiveGame) {
        // The ring holds the very states the channel holds (and their texts), so a kept state
        // costs its memory once.
        let snap = Arc::new(Snapshot::new(g.view(), g.row().clone()));
        slot.recent.push(snap.clone());
        let _ = slot.tx.send(snap);
    }

    /// Reloads a game from the store after a write found it changed by someone else.
    pub(super) async fn reload(&self, slot: &GameSlot, g: &mut MutexGuard<'_, Box<dyn LiveGame>>) {
        let id = g.row().id.clone();
        match self.store.load_game(&id).await {
            Ok(Some((mut row, moves))) => {
                self.rate_seats(&mut row).await;
                match live_game::load(row, &moves, self.time.clone()) {
                    Ok(mut fresh) => {
                        fresh.continue_history(g.as_ref());
                        **g = fresh;
                        Self::broadcast_here(slot, g.as_ref());
                    }
                    Err(e) => tracing::error!(game = %id, error = %e, "reload failed"),
                }
            }
            Ok(None) => tracing::error!(game = %id, "game vanished from the store"),
            Err(e) => tracing::error!(game = %id, error = %e, "reload failed"),
        }
    }

    /// Reloads the locked game `g` if another process changed it in the store.
    pub(crate) async fn refresh(
        &self,
        slot: &GameSlot,
        g: &mut MutexGuard<'_, Box<dyn LiveGame>>,
    ) -> Result<(), SiteError> {
        let id = g.row().id.clone();
        if let Some(v) = self.store.version_of(&id).await?
            && v != g.row().version
        {
            self.reload(slot, g).await;
            self.reclaim_presence(slot, g).await;
        }
        Ok(())
    }

    /// Locks the game, first reloading it if another process changed it in the store (several
    /// servers may share one database).
    pub(crate) async fn lock_fresh<'a>(
        &self,
        slot: &'a GameSlot,
    ) -> Result<MutexGuard<'a, Box<dyn LiveGame>>, SiteError> {
        let mut g = slot.game.lock().await;
        self.refresh(slot, &mut g).await?;
        Ok(g)
    }
}
