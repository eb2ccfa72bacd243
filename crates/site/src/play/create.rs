//! Making games: `POST /api/games` (a friend's invitation, the engine, one screen, a
//! position to start from, a time control) and opening a game made elsewhere (the lobby,
//! a rematch).

use super::*;
use site_model::secrets::PlayerToken;

impl GameService {
    /// `POST /api/games`.
    pub async fn create(
        self: &Arc<Self>,
        token: &PlayerToken,
        req: NewGame,
    ) -> Result<GameView, SiteError> {
        let variant = req.variant;
        let (start_fen, turn) = live_game::start_of(variant, req.fen.as_deref())?;
        let me = side_for(req.color);
        let control = req
            .time_control
            .unwrap_or(TimeControl::Unlimited {})
            .validate()?;
        let rated = req.rated;
        if req.opponent == Opponent::Local && control != (TimeControl::Unlimited {}) {
            return Err(SiteError::bad_request(
                "a clock is for games against a friend or the engine, not on one screen",
            ));
        }
        if rated {
            if req.opponent != Opponent::Friend {
                return Err(SiteError::bad_request(
                    "only games between two players are rated",
                ));
            }
            if req.fen.is_some() {
                // As lichess: a set-up position could hand one side a won game.
                return Err(SiteError::bad_request(
                    "a game from a set-up position cannot be rated: leave out the position, or play it casual",
                ));
            }
            self.check_rated(token, control).await?;
        }
        let mut human = human_seat(token);
        human.name = self.account_name(token).await?;
        let id = random_token(8);
        let (other, invite) = match req.opponent {
            Opponent::Engine => {
                let level = req
                    .level
                    .ok_or_else(|| SiteError::bad_request("an engine game needs a level (1-8)"))?;
                let level = Level::try_from(level).map_err(SiteError::bad_request)?;
                self.check_engine_games(token).await?;
                let engine = SeatRow {
                    kind: SeatKind::Engine,
                    level: Some(level),
                    token: None,
                    name: None,
                    rating: None,
                    bot: false,
                };
                (engine, None)
            }
            Opponent::Friend | Opponent::Local if req.level.is_some() => {
                return Err(SiteError::bad_request("a level is only for engine games"));
            }
            Opponent::Friend => {
                let open = SeatRow {
                    kind: SeatKind::Open,
                    level: None,
                    token: None,
                    name: None,
                    rating: None,
                    bot: false,
                };
                (open, Some(invite_hash(&invite_for(token, &id))))
            }
            Opponent::Local => (human.clone(), None),
        };
        let (white, black) = match me {
            Color::White => (human, other),
            Color::Black => (other, human),
        };
        let mut clock = control.new_clock();
        if req.opponent == Opponent::Engine
            && let Some(c) = clock.as_mut()
        {
            // Both seats are taken: the side to move's clock (or first-move wait) runs.
            c.start(turn, self.time.now_ms());
        }
        let row = GameRow {
            invite,
            // A friend game's clock starts when the friend joins; the engine's at once.
            clock,
            rated,
            ..GameRow::new_game(
                id,
                variant,
                start_fen,
                white,
                black,
                turn,
                self.time.now_ms(),
            )
        };
        self.store.insert_game(&row).await?;
        tracing::info!(game = %row.id, %variant, opponent = %req.opponent, "game created");
        self.open_new(row, token, "new game").await
    }

    /// Puts a just-stored game without moves (`what`: "new game", "rematch") in memory,
    /// starts its engine if the engine moves first, and returns `token`'s view of it.
    pub(crate) async fn open_new(
        self: &Arc<Self>,
        mut row: GameRow,
        token: &PlayerToken,
        what: &str,
    ) -> Result<GameView, SiteError> {
        let id = row.id.clone();
        self.rate_seats(&mut row).await;
        let game = live_game::load(row, &[], self.time.clone()).map_err(|e| {
            SiteError::new(ErrorCode::Internal, format!("{what} does not load: {e}"))
        })?;
        let slot = self.insert_slot(&id, game);
        let g = slot.game.lock().await;
        self.start_engine(&slot, g.row());
        Ok(g.view().personalize(g.row(), token))
    }
}
