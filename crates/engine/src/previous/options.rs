//! Which of the frozen search's techniques are on, and the constants they use: a copy of
//! `crate::search::options` of 2026-12-07 without the switches of the evaluation (`tuned`,
//! `tuned2`, `nnue`: the frozen engine has its one tuned evaluation per game) and without the
//! names of the settings (the frozen engine takes no `on=`/`off=`). Each game's set is
//! [`super::PreviousVariant::PREVIOUS_OPTIONS`].

/// Switches of the search techniques. The names in brackets are those of today's engine
/// settings (`off=nmp+asp`), for reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SearchOptions {
    /// Null-move pruning (`nmp`): at a node whose static evaluation is at or above beta, let
    /// the opponent move twice at a reduced depth; if it still fails high, cut. Never in
    /// check, on the ply that brings an Ice Age, or where the game says a pass is
    /// meaningless ([`crate::previous::PreviousVariant::previous_null_move`]).
    pub null_move: bool,
    /// Aspiration windows at the root (`asp`): search each iteration in a window around the
    /// previous score, widened on a fail.
    pub aspiration: bool,
    /// Static exchange evaluation (`see`): captures that lose material are tried after the
    /// quiet moves, skipped in quiescence, and at low depth both losing captures and quiet
    /// moves onto attacked squares are pruned.
    pub see: bool,
    /// Reverse futility pruning (`rfp`): at low depth, a static evaluation above beta by a
    /// margin per ply cuts.
    pub reverse_futility: bool,
    /// Futility pruning (`fut`): at low depth, quiet moves are skipped when the static
    /// evaluation plus a margin per ply cannot reach alpha.
    pub futility: bool,
    /// Late-move pruning (`lmp`): at low depth, quiet moves after the first few are
    /// skipped.
    pub late_move_pruning: bool,
    /// Ice Age extension (`iae`): the node whose move brings an Ice Age is searched one
    /// ply deeper ([`crate::previous::PreviousVariant::previous_transforms_board`]).
    pub ice_age_extension: bool,
    /// Late-move reductions from a log formula (`lmrlog`): `LMR_BASE + ln(depth) ln(move
    /// number) / LMR_DIVISOR` instead of the step rule of the baseline (1 ply, 2 for
    /// late moves at depth 6 or more).
    pub lmr_log: bool,
    /// History malus (`hmalus`): when a quiet move cuts off, the quiet moves tried before it
    /// lose what it gains, and every history update is pulled towards 0 as it nears the cap
    /// (the "history gravity" of Stockfish), so that history ranks moves by their recent
    /// success rather than by how often they were tried.
    pub history_malus: bool,
    /// Countermove (`cmove`): the quiet move that last refuted the opponent's previous move
    /// (by its squares) is tried right after the killers.
    pub countermove: bool,
    /// Internal iterative reduction (`iir`): a node of depth `IIR_MIN_DEPTH` or more with no
    /// table move is searched one ply shallower (its ordering is a guess, and the next
    /// iteration finds it with a move).
    pub iir: bool,
    /// History-adjusted reductions (`hlmr`): a late quiet move is reduced up to
    /// `HLMR_MAX` plies less when its history is good and, with `hmalus` (the only way a
    /// counter goes below 0), up to that much more when bad.
    pub history_lmr: bool,
    /// Table cutoffs in quiescence (`qtt`): a quiescence node whose position has a table
    /// entry with a bound that decides the window returns it.
    pub quiescence_tt: bool,
    /// One more ply of late-move reduction at non-PV nodes (`lmrnpv`): only the principal
    /// variation keeps the plain reductions.
    pub lmr_non_pv: bool,
    /// "Improving" (`impr`): when the static evaluation is no better than two plies
    /// before (the same side to move), late-move pruning keeps fewer quiet moves
    /// (`LMP_NOT_IMPROVING`) and, when it is better, reverse futility cuts one ply's margin
    /// sooner. Without an evaluation two plies before (plies 1 and 2, or after a check) a
    /// node counts as not improving.
    pub improving: bool,
    /// Singular extension (`sing`): at depth `SE_MIN_DEPTH` or more, when the table move's
    /// lower bound is deep enough, the other moves are searched at half depth against that
    /// bound less `SE_MARGIN` per ply; if none reaches it the table move is the only good
    /// one and is searched a ply deeper; if that reduced bound is still at or above beta,
    /// several moves cut and the node returns it (multi-cut).
    pub singular: bool,
    /// Goal threats as checks (`thr`): a position whose side to move would lose to the
    /// opponent's next move if it did nothing ([`crate::previous::PreviousVariant::previous_threatened`];
    /// Antarctos: an enemy man one turn from its goal row, A12) gets no stand pat in
    /// quiescence, and a move after which the opponent is so threatened is neither pruned
    /// nor reduced, as a checking move. (Searching such a node as in check, one ply deeper
    /// and unpruned, lost more and was dropped: docs/strength.md.)
    pub threat: bool,
}

impl SearchOptions {
    /// Everything off (the worker's table of log-formula reductions starts from it).
    pub const NONE: SearchOptions = SearchOptions {
        null_move: false,
        aspiration: false,
        see: false,
        reverse_futility: false,
        futility: false,
        late_move_pruning: false,
        ice_age_extension: false,
        lmr_log: false,
        history_malus: false,
        countermove: false,
        iir: false,
        history_lmr: false,
        quiescence_tt: false,
        lmr_non_pv: false,
        improving: false,
        singular: false,
        threat: false,
    };
}

/// Late-move reductions, step rule (the baseline's): quiet moves from the
/// `LMR_MIN_MOVE`-th on (0-based), at depth `LMR_MIN_DEPTH` or more, are searched one ply
/// shallower, ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... (0-based index of the first reduced move) ...
pub const LMR_MIN_MOVE: usize = 3;
/// ... and two plies shallower from the `LMR_LATE_MOVE`-th move on ...
pub const LMR_LATE_MOVE: usize = 8;
/// ... at depth `LMR_LATE_DEPTH` or more.
pub const LMR_LATE_DEPTH: i32 = 6;
/// Log-formula reductions: constant part, in plies.
pub const LMR_BASE: f64 = 0.5;
/// Log-formula reductions: divisor of `ln(depth) * ln(move number)`.
pub const LMR_DIVISOR: f64 = 2.25;

/// Null move: smallest depth at which it is tried.
pub const NMP_MIN_DEPTH: i32 = 3;
/// Null move: reduction `NMP_BASE + depth / NMP_DEPTH_DIVISOR` plies.
pub const NMP_BASE: i32 = 3;
/// See [`NMP_BASE`].
pub const NMP_DEPTH_DIVISOR: i32 = 4;
/// Null move: a null-move cut at this depth or more is verified by a search without null
/// moves (zugzwang insurance).
pub const NMP_VERIFY_DEPTH: i32 = 10;

/// Aspiration windows: from this iteration on ...
pub const ASPIRATION_MIN_DEPTH: u32 = 5;
/// ... the window is the previous score ± this many centi-units, doubled on every fail.
pub const ASPIRATION_DELTA: i32 = 30;

/// Reverse futility: deepest remaining depth at which it applies ...
pub const RFP_MAX_DEPTH: i32 = 6;
/// ... and the margin per ply, in centi-units.
pub const RFP_MARGIN: i32 = 90;

/// Futility: deepest remaining depth at which quiet moves are skipped ...
pub const FUTILITY_MAX_DEPTH: i32 = 5;
/// ... when the static evaluation plus `FUTILITY_BASE + FUTILITY_MARGIN * depth` is at or
/// below alpha.
pub const FUTILITY_BASE: i32 = 60;
/// See [`FUTILITY_BASE`].
pub const FUTILITY_MARGIN: i32 = 100;

/// Late-move pruning: deepest remaining depth at which it applies; at depth `d` only the
/// first `LMP_BASE + d * d` quiet moves are searched.
pub const LMP_MAX_DEPTH: i32 = 5;
/// See [`LMP_MAX_DEPTH`].
pub const LMP_BASE: usize = 3;
/// With `impr`, when not improving: late-move pruning keeps this share (numerator over 3) of
/// the quiet moves it keeps otherwise.
pub const LMP_NOT_IMPROVING: usize = 2;

/// SEE pruning: deepest remaining depth at which moves that lose material are skipped; a
/// capture must not lose more than `SEE_CAPTURE_MARGIN * depth`, a quiet move more than
/// `SEE_QUIET_MARGIN * depth * depth` (centi-units).
pub const SEE_MAX_DEPTH: i32 = 6;
/// See [`SEE_MAX_DEPTH`].
pub const SEE_CAPTURE_MARGIN: i32 = 90;
/// See [`SEE_MAX_DEPTH`].
pub const SEE_QUIET_MARGIN: i32 = 25;

/// Internal iterative reduction: smallest depth at which a node without a table move is
/// searched one ply shallower.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Singular extension: smallest depth at which it is tried ...
pub const SE_MIN_DEPTH: i32 = 8;
/// ... the table entry's depth may be this much below the node's ...
pub const SE_TABLE_DEPTH_SLACK: i32 = 3;
/// ... and the other moves must stay below the table score less this many centi-units per
/// ply of depth.
pub const SE_MARGIN: i32 = 2;

/// History-adjusted reductions: at most this many plies less (good history) or more (bad).
pub const HLMR_MAX: i32 = 2;

/// Reduction of a quiet move number `index` (0-based) at remaining `depth`, by the options'
/// rule (before the checks that exempt the move).
pub fn lmr_reduction(options: &SearchOptions, depth: i32, index: usize) -> i32 {
    if depth < LMR_MIN_DEPTH || index < LMR_MIN_MOVE {
        return 0;
    }
    if options.lmr_log {
        let r = LMR_BASE + f64::from(depth).ln() * ((index + 1) as f64).ln() / LMR_DIVISOR;
        (r as i32).clamp(1, depth - 1)
    } else if index >= LMR_LATE_MOVE && depth >= LMR_LATE_DEPTH {
        2
    } else {
        1
    }
}
