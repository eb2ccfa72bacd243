//! `engine::nnue::install_network` (the lab's `icebound match --nnue FILE`): a network put in
//! before the first use is the one the engine reads, each game's in its own place, and a
//! second one is refused. Its own test binary, so that no other test reads the embedded
//! networks first in this process.

use antarctos::Antarctos;
use engine::nnue::{self, Network, NnueGame};
use iceage::IceAge;

/// A small deterministic network of game `G` whose every weight depends on `seed`.
fn network<G: NnueGame>(seed: i16) -> Network {
    let hidden = 8;
    Network {
        game: G::GAME,
        inputs: G::INPUTS,
        hidden,
        scale: 400,
        ft_weights: (0..G::INPUTS * hidden)
            .map(|i| ((i as i16 % 17) - 8) * seed)
            .collect(),
        ft_bias: (0..hidden).map(|i| i as i16 * seed).collect(),
        out_weights: (0..2 * hidden).map(|i| (i as i8 % 9) - 4).collect(),
        out_bias: i32::from(seed),
    }
}

#[test]
fn installed_networks_replace_the_embedded_ones_until_first_use() {
    let ice = network::<IceAge>(3);
    let embedded_antarctos = nnue::embedded_hashes().0;
    assert!(nnue::install_network(ice.clone()));
    let read = nnue::iceage_network().expect("installed network");
    assert_eq!(read.to_bytes(), ice.to_bytes());
    // The other game still reads its embedded network ...
    let antarctos = nnue::antarctos_network().expect("embedded network");
    assert_eq!(
        nnue::fnv1a(&antarctos.to_bytes()[nnue::HEADER_LEN..]),
        embedded_antarctos
    );
    // ... and, once read, neither can be replaced.
    assert!(!nnue::install_network(network::<Antarctos>(5)));
    assert!(!nnue::install_network(network::<IceAge>(7)));
    let again = nnue::iceage_network().expect("installed network");
    assert_eq!(again.to_bytes(), ice.to_bytes());
    assert_eq!(
        nnue::fnv1a(&nnue::antarctos_network().expect("embedded").to_bytes()[nnue::HEADER_LEN..]),
        embedded_antarctos
    );
}
