//! What the unit tests share: a variant loaded from the repository's
//! rules files, and 4D-Schach's post-opening test position.

use crate::engine::variant::Variant;

/// The post-opening test position of interpreter/tests/four_d.rs (FEN
/// lists level VII first, level I last).
pub(crate) const FOUR_D_POST_OPENING: &str = "5p2/2P5/8/6p1/8/5P2/4B3/8|4n3/8/8/7q/5P2/8/3R4/5P2|8/8/4p3/3k4/8/8/7R/6N1|8/8/B3P3/8/8/b3p3/8/8|6n1/7r/8/8/3K4/4P3/8/8|5p2/3r4/8/5p2/7Q/8/8/4N3|8/4b3/5p2/8/6P1/8/2p5/5P2 w - - 0 1";

/// The variant of `file`, a path from the repository's root
/// (`rules/4d-schach.rules`).
pub(crate) fn variant(file: &str) -> Variant {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(file);
    let Ok((game, _)) = crate::model::load::load(&path) else { panic!("{file} loads") };
    Variant::new(std::sync::Arc::new(game))
}
