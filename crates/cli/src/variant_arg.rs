//! `--variant`: which game a command works on, and the dispatch from a name to the
//! generic code.

/// The games the CLI knows, by their `--variant` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantName {
    /// Antarctos (icebound checkers).
    Antarctos,
    /// Ice Age Chess.
    Iceage,
}

/// Runs a generic function with the `Variant` type named by a [`VariantName`]:
/// `with_variant!(name, V => run::<V>(args))`.
#[macro_export]
macro_rules! with_variant {
    ($name:expr, $v:ident => $body:expr) => {
        match $name {
            $crate::variant_arg::VariantName::Antarctos => {
                type $v = antarctos::Antarctos;
                $body
            }
            $crate::variant_arg::VariantName::Iceage => {
                type $v = iceage::IceAge;
                $body
            }
        }
    };
}
