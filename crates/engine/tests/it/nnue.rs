//! The learned evaluation (issue 43): the incremental accumulators equal a full
//! recomputation along random games (captures, ice jumps, new ice, Ice Ages), the output
//! of a fixed test network on fixed positions is pinned, and bad weights files give errors.

use antarctos::Antarctos;
use engine::nnue::{self, Accumulators, FormatError, GameId, Network, NnueGame};
use game::Variant;
use iceage::IceAge;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A deterministic test network with random weights in the ranges training gives.
fn test_network<G: NnueGame>(hidden: usize, seed: u64) -> Network {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    Network {
        game: G::GAME,
        inputs: G::INPUTS,
        hidden,
        scale: 400,
        ft_weights: (0..G::INPUTS * hidden)
            .map(|_| rng.random_range(-120..=120))
            .collect(),
        ft_bias: (0..hidden).map(|_| rng.random_range(0..=160)).collect(),
        out_weights: (0..2 * hidden)
            .map(|_| rng.random_range(-127..=127))
            .collect(),
        out_bias: rng.random_range(-5000..=5000),
    }
}

/// Walks random games as a search does: down a line, back up a random number of plies
/// and down another, evaluating at some plies only, and checks every evaluation against a
/// from-scratch one. Returns how many positions were checked and whether the walk met the
/// events the test is about.
fn walk<V, G>(
    net: &Network,
    positions: usize,
    seed: u64,
    event: impl Fn(&V::Position, &V::Position) -> u8,
) -> (usize, [bool; 8])
where
    V: Variant,
    G: NnueGame<Pos = V::Position>,
{
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut acc = Accumulators::new(net, 130);
    let mut seen = [false; 8];
    let mut checked = 0;
    let mut line: Vec<V::Position> = vec![V::start_position()];
    let mut moves = Vec::new();
    while checked < positions {
        let pos = line.last().expect("a position").clone();
        let ply = line.len() - 1;
        V::legal_moves_into(&pos, &mut moves);
        let over = moves.is_empty() || V::outcome(&pos).is_some() || ply + 1 >= acc.plies();
        // Evaluate at about two plies in three (a search skips nodes in check).
        if rng.random_range(0..3) != 0 {
            let incremental = acc.evaluate::<G>(net, ply, &pos);
            let scratch = net.evaluate::<G>(&pos);
            assert_eq!(incremental, scratch, "ply {ply}, seed {seed}");
            let mut full = vec![0; 2 * net.hidden];
            net.refresh::<G>(&G::planes(&pos), &mut full);
            assert_eq!(acc.compute::<G>(net, ply, &pos), &full[..]);
            checked += 1;
        }
        if over || rng.random_range(0..40) == 0 {
            // Back up: to a random ancestor (a new game after the start position's line).
            let keep = rng.random_range(1..=line.len());
            line.truncate(keep);
            if over && keep == line.len() && line.len() > 1 {
                line.pop();
            }
            if over && line.len() == 1 && moves.is_empty() {
                line = vec![V::start_position()];
            }
            continue;
        }
        let mv = &moves[rng.random_range(0..moves.len())];
        let child = V::play_unchecked(&pos, mv);
        seen[usize::from(event(&pos, &child))] = true;
        line.push(child);
    }
    (checked, seen)
}

#[test]
fn antarctos_incremental_equals_full_on_10000_positions() {
    let net = test_network::<Antarctos>(32, 1);
    // Events: 1 a capture (a man turns into ice), 2 an ice jump (ice melts).
    let (n, seen) = walk::<Antarctos, Antarctos>(&net, 10_000, 7, |a, b| {
        let ice_a = a.ice().len();
        let ice_b = b.ice().len();
        if ice_b > ice_a {
            1
        } else if ice_b < ice_a {
            2
        } else {
            0
        }
    });
    assert!(n >= 10_000);
    assert!(seen[1], "no capture met");
    assert!(seen[2], "no ice jump met");
}

#[test]
fn iceage_incremental_equals_full_on_10000_positions() {
    let net = test_network::<IceAge>(32, 2);
    // Events: 1 a capture, 2 ice melts (a capture of ice), 3 an Ice Age (ice appears).
    let (n, seen) = walk::<IceAge, IceAge>(&net, 10_000, 8, |a, b| {
        let ice_a = a.board().ice().count();
        let ice_b = b.board().ice().count();
        let pieces_a = a.board().pieces().count();
        let pieces_b = b.board().pieces().count();
        if ice_b > ice_a {
            3
        } else if ice_b < ice_a {
            2
        } else if pieces_b < pieces_a {
            1
        } else {
            0
        }
    });
    assert!(n >= 10_000);
    assert!(seen[1], "no capture met");
    assert!(seen[2], "no ice melted");
    assert!(seen[3], "no Ice Age met");
}

/// A long random Ice Age Chess game passes several Ice Ages, checked ply by ply.
#[test]
fn iceage_long_random_games_through_ice_ages() {
    let net = test_network::<IceAge>(16, 3);
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut ice_ages = 0;
    for _ in 0..20 {
        let mut acc = Accumulators::new(&net, 130);
        let mut pos = IceAge::start_position();
        let mut moves = Vec::new();
        for ply in 0..400usize {
            assert_eq!(
                acc.evaluate::<IceAge>(&net, ply % 128, &pos),
                net.evaluate::<IceAge>(&pos)
            );
            IceAge::legal_moves_into(&pos, &mut moves);
            if moves.is_empty() || IceAge::outcome(&pos).is_some() {
                break;
            }
            if pos.ice_age_due() {
                ice_ages += 1;
            }
            pos = IceAge::play_unchecked(&pos, &moves[rng.random_range(0..moves.len())]);
        }
    }
    assert!(ice_ages >= 5, "{ice_ages} Ice Ages");
}

fn pinned<G: NnueGame<Pos = V::Position>, V: Variant>(net: &Network, texts: &[&str]) -> Vec<i32> {
    texts
        .iter()
        .map(|t| match V::parse_position(t) {
            Ok(pos) => net.evaluate::<G>(&pos),
            Err(_) => panic!("a position: {t}"),
        })
        .collect()
}

#[test]
fn outputs_on_fixed_positions_are_pinned() {
    // The test networks go through the file format first.
    let a = Network::from_bytes::<Antarctos>(&test_network::<Antarctos>(32, 1).to_bytes())
        .expect("reads");
    let start = Antarctos::position_text(&Antarctos::start_position());
    let got = pinned::<Antarctos, Antarctos>(&a, &[&start]);
    let i =
        Network::from_bytes::<IceAge>(&test_network::<IceAge>(32, 2).to_bytes()).expect("reads");
    let ice_start = IceAge::position_text(&IceAge::start_position());
    let got_i = pinned::<IceAge, IceAge>(&i, &[&ice_start]);
    assert_eq!((got, got_i), (vec![PIN_A], vec![PIN_I]));
}

const PIN_A: i32 = 382;
const PIN_I: i32 = 1945;

#[test]
fn the_embedded_networks_read() {
    let a = nnue::antarctos_network().expect("embedded Antarctos network");
    let i = nnue::iceage_network().expect("embedded Ice Age Chess network");
    assert_eq!((a.game, a.inputs), (GameId::Antarctos, 96));
    assert_eq!((i.game, i.inputs), (GameId::IceAge, 840));
    let (ha, hi) = nnue::embedded_hashes();
    assert_ne!(ha, hi);
}

#[test]
fn bad_bytes_give_errors_not_panics() {
    let good = test_network::<Antarctos>(8, 4).to_bytes();
    assert!(Network::from_bytes::<Antarctos>(&good).is_ok());
    assert_eq!(
        Network::from_bytes::<Antarctos>(&good[..10]),
        Err(FormatError::TooShort(10))
    );
    let mut bad = good.clone();
    bad[0] = b'X';
    assert_eq!(
        Network::from_bytes::<Antarctos>(&bad),
        Err(FormatError::BadMagic)
    );
    let mut bad = good.clone();
    bad[8] = 9;
    assert_eq!(
        Network::from_bytes::<Antarctos>(&bad),
        Err(FormatError::Version(9))
    );
    let mut bad = good.clone();
    bad[12] = 7;
    assert_eq!(
        Network::from_bytes::<Antarctos>(&bad),
        Err(FormatError::UnknownGame(7))
    );
    assert!(matches!(
        Network::from_bytes::<IceAge>(&good),
        Err(FormatError::WrongGame { .. })
    ));
    let mut bad = good.clone();
    bad[20..24].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        Network::from_bytes::<Antarctos>(&bad),
        Err(FormatError::Sizes { .. })
    ));
    let mut bad = good.clone();
    bad.pop();
    assert!(matches!(
        Network::from_bytes::<Antarctos>(&bad),
        Err(FormatError::BodyLength { .. })
    ));
    let mut bad = good.clone();
    let last = bad.len() - 1;
    bad[last] ^= 1;
    assert!(matches!(
        Network::from_bytes::<Antarctos>(&bad),
        Err(FormatError::Hash { .. })
    ));
    // Every truncation and a sweep of single-byte changes: errors, never a panic.
    for n in 0..good.len().min(400) {
        assert!(Network::from_bytes::<Antarctos>(&good[..n]).is_err());
    }
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..500 {
        let mut b = good.clone();
        let at = rng.random_range(0..b.len());
        b[at] = rng.random();
        let _ = Network::from_bytes::<Antarctos>(&b);
    }
    let message = Network::from_bytes::<Antarctos>(&good[..10])
        .unwrap_err()
        .to_string();
    assert!(message.contains("too short"), "{message}");
}

/// The search runs with `nnue` on in both games and plays legal moves.
#[test]
fn search_with_nnue_plays() {
    use engine::EngineConfig;
    let config = EngineConfig {
        nodes: Some(3_000),
        switches: vec![("nnue", true)],
        ..Default::default()
    };
    assert!(engine::choose_move::<Antarctos>(&Antarctos::start_position(), &config).is_some());
    assert!(engine::choose_move::<IceAge>(&IceAge::start_position(), &config).is_some());
}

#[test]
fn level_8_evaluates_with_the_network_in_ice_age_chess_only() {
    use engine::EngineConfig;
    assert!(EngineConfig::level(8).options::<IceAge>().nnue);
    assert!(!EngineConfig::level(7).options::<IceAge>().nnue);
    assert!(!EngineConfig::level(8).options::<Antarctos>().nnue);
    let explicit = EngineConfig {
        movetime: Some(std::time::Duration::from_millis(150)),
        ..EngineConfig::default()
    };
    assert!(!explicit.options::<IceAge>().nnue);
    let off = EngineConfig {
        switches: vec![("nnue", false)],
        ..EngineConfig::level(8)
    };
    assert!(!off.options::<IceAge>().nnue);
}
