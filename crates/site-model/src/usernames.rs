//! What makes two usernames the same name (issue 41): names are unique without regard to
//! case, and a new name may not look like a taken one. Looks are compared by the name's
//! [`skeleton_key`]: its UTS #39 skeleton (the `unicode-security` crate: `I` and `1` become
//! `l`, `0` becomes `O`, `rn` becomes `m` ...), in lower case (names ignore case), and
//! skeletonised again, so that `AIice`, `A1ice`, `a1ice` and `Alice` share one key (an
//! all-capitals lookalike such as `ALlCE` does not: `ALICE` is `Alice` by case alone, which
//! the case-insensitive uniqueness refuses). The key is stored with the account (an indexed column), so the check
//! against every existing name is one query. Names on [`RESERVED`] (compared by key too:
//! `Adm1n` is `admin`) are refused.

use unicode_security::confusable_detection::skeleton;

/// Names no player may take (compared by [`skeleton_key`]).
pub const RESERVED: &[&str] = &[
    "abuse",
    "admin",
    "administrator",
    "anonymous",
    "api",
    "guest",
    "help",
    "icebound",
    "mod",
    "moderator",
    "moderators",
    "null",
    "official",
    "owner",
    "root",
    "search",
    "security",
    "server",
    "staff",
    "support",
    "sysop",
    "system",
    "undefined",
    "webmaster",
];

/// Reserved words that claim authority: refused also as a part of a name, between `_` or `-`
/// and with digits at its ends (`admin1`, `mod_carol`, `icebound-team`; the hostile round's
/// finding 4). A part must be the whole word: `modest` and `administer` are free.
pub const AUTHORITY: &[&str] = &[
    "admin",
    "administrator",
    "icebound",
    "mod",
    "moderator",
    "moderators",
    "official",
    "security",
    "staff",
    "support",
    "sysop",
    "system",
    "webmaster",
];

/// The key two names share when they look alike: skeleton, lower case, skeleton, of the name
/// without `_` and `-` at its ends (`alice_` looks like `alice`; the third hostile round).
pub fn skeleton_key(name: &str) -> String {
    let once: String = skeleton(name.trim_matches(['_', '-'])).collect();
    skeleton(&once.to_lowercase()).collect()
}

/// Digits read as the letters they stand for in names (`4dmin`, `st4ff`, `sys7em`).
fn digit_letter(c: char) -> char {
    match c {
        '0' => 'o',
        '1' => 'l',
        '3' => 'e',
        '4' => 'a',
        '5' => 's',
        '7' => 't',
        c => c,
    }
}

/// Authority words refused anywhere inside a name once separators are dropped and digits read
/// as letters (`ice_bound`, `teamicebound`, `moderation`): long enough that no honest name
/// holds them by chance (`admin` is checked apart, at the ends: `administer` and `badminton` are honest).
const AUTHORITY_INSIDE: &[&str] = &["moderator", "moderation", "icebound", "webmaster", "sysop"];

/// Words that, joined to an authority word, claim a team (`modteam`, `staffcrew`, `mods`).
const TEAM_WORDS: &[&str] = &["", "s", "team", "crew", "squad", "staff", "support"];

/// Whether `name`, squeezed (lower case, no `_` or `-`, digits as letters, `i` as `l`), holds
/// an authority word inside, or is one joined to a team word on either side.
fn squeezed_authority(name: &str, fold: impl Fn(String) -> String) -> bool {
    let word = |w: &str| fold(skeleton_key(w));
    let squeezed: String = name
        .to_lowercase()
        .chars()
        .filter(|c| !matches!(c, '_' | '-'))
        .map(digit_letter)
        .collect();
    let squeezed = word(&squeezed);
    if AUTHORITY_INSIDE.iter().any(|w| squeezed.contains(&word(w))) {
        return true;
    }
    // `admin` at either end, but not the honest `administer` or `badminton`.
    let admin = word("admin");
    if squeezed.ends_with(&admin)
        || (squeezed.starts_with(&admin) && !squeezed[admin.len()..].starts_with(&word("ist")))
    {
        return true;
    }
    AUTHORITY.iter().any(|w| {
        let w = word(w);
        TEAM_WORDS.iter().any(|t| {
            let t = if t.is_empty() { String::new() } else { word(t) };
            squeezed == format!("{w}{t}")
                || squeezed == format!("{t}{w}")
                || squeezed == format!("{}{w}{t}", word("the"))
        })
    })
}

/// Whether `name` is a reserved name, or looks like one in any case: for these names `i`
/// and `l` are one letter too (`ADMIN` has a capital `I`, which looks like `l`, and
/// `1cebound` a `1`, which does too), beyond the skeleton.
pub fn is_reserved(name: &str) -> bool {
    let fold = |key: String| key.replace('i', "l");
    let keys = [
        fold(skeleton_key(name)),
        fold(skeleton_key(&name.to_lowercase())),
    ];
    if RESERVED
        .iter()
        .any(|r| keys.contains(&fold(skeleton_key(r))))
    {
        return true;
    }
    // The parts between separators, each as written and without the digits at its ends (a
    // digit inside a word, `adm1n`, is a lookalike letter and stays).
    let parts = name
        .split(['_', '-'])
        .filter(|p| !p.is_empty())
        .flat_map(|p| [p, p.trim_matches(|c: char| c.is_ascii_digit())])
        .filter(|p| !p.is_empty());
    if squeezed_authority(name, fold) {
        return true;
    }
    let authority: Vec<String> = AUTHORITY.iter().map(|a| fold(skeleton_key(a))).collect();
    parts.into_iter().any(|p| {
        [skeleton_key(p), skeleton_key(&p.to_lowercase())]
            .into_iter()
            .any(|k| authority.contains(&fold(k)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_issues_lookalikes_share_alices_key() {
        let alice = skeleton_key("Alice");
        for look in ["AIice", "A1ice", "alice", "ALice", "a1ice", "aIice"] {
            assert_eq!(skeleton_key(look), alice, "{look}");
        }
        // A capital I looks like l, not i: `AlIce` reads as `Allce`.
        for other in ["Alicia", "Ali_ce", "Bob", "Malice", "AlIce"] {
            assert_ne!(skeleton_key(other), alice, "{other}");
        }
        // Separators at the ends add nothing (the third hostile round: `alice_` next to `alice`).
        for look in ["alice_", "_alice", "-Alice-"] {
            assert_eq!(skeleton_key(look), alice, "{look}");
        }
        assert_eq!(skeleton_key("B0b"), skeleton_key("bob"));
        assert_eq!(skeleton_key("rnarco"), skeleton_key("marco"));
    }

    #[test]
    fn reserved_names_and_their_lookalikes_are_reserved() {
        for name in [
            "admin",
            "Admin",
            "ADMIN",
            "adm1n",
            "AdmIn",
            "icebound",
            "IceBound",
            "1cebound",
            "system",
            "root",
            "r00t",
            "support",
            "moderator",
        ] {
            assert!(is_reserved(name), "{name}");
        }
        for name in ["admiral", "Alice", "iceberg", "roots"] {
            assert!(!is_reserved(name), "{name}");
        }
    }

    #[test]
    fn authority_words_are_reserved_as_parts_of_names() {
        for name in [
            "admin1",
            "moderator_",
            "mod_carol",
            "icebound-team",
            "Staff_2",
            "the-ADM1N",
            "99support",
            "carol-m0d",
            // The third hostile round's: split, joined to a word, digits for letters.
            "ad_min",
            "ad-min",
            "a_d_m_i_n",
            "m-o-d",
            "mo_d",
            "sta_ff",
            "ice_bound",
            "ice-bound-fan",
            "sup_port",
            "modteam",
            "themodteam",
            "mods",
            "moderation",
            "teamicebound",
            "4dmin",
            "st4ff",
            "5taff",
            "sys7em",
            "suppor7",
            "superadmin",
        ] {
            assert!(is_reserved(name), "{name}");
        }
        for name in [
            "modest",
            "administer",
            "administration_fan",
            "carol_99",
            "root_beer",
            "systematic",
            "moderate_play",
            "staffan",
            "model_t",
            "ice_berg",
            "badminton_ace",
        ] {
            assert!(!is_reserved(name), "{name}");
        }
    }
}
