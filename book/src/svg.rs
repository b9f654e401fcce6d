//! Diagrams as SVG: the setup (2D boards with coordinates, 3D boards level by
//! level, holes, zones and hands) and one movement diagram per piece.
//!
//! Each diagram is a standalone SVG document (`<svg xmlns=…>` with a
//! `viewBox`, `width` and `height`), written directly as text: valid XML,
//! no external fonts or images (a generic `font-family`), coordinates
//! rounded to one decimal, and deterministic, so it can be snapshot. The
//! elements carry classes a page's CSS (and the tests) can find: `square`
//! (`light`/`dark`), `piece` (`white`/`black`, `hidden`, `promoted`), `hand`,
//! `mark`, and in movement diagrams `quiet`, `capture`, `both`, `initial`,
//! `via`, `ride`, `hop`; cells are named in `data-cell`.
//!
//! * [`board`]: a position ([`board::board`]);
//! * [`movement`]: one piece's movement ([`movement::movement`]), from
//!   [`reach`], where a piece on an empty board can go;
//! * [`marks`]: the highlighted sets of cells a board diagram shows;
//! * [`embed`]: putting a diagram into a page;
//! * [`layout`], [`legend`], [`pieces`], [`writer`]: the drawing parts.

pub mod board;
pub mod embed;
pub mod layout;
pub mod legend;
pub mod marks;
pub mod movement;
pub mod pieces;
pub mod reach;
pub mod writer;

pub use board::board;
pub use embed::{data_uri, figure};
pub use marks::{Mark, Marks};
pub use movement::movement;
