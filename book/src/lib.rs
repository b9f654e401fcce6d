//! The generated rulebook of a variant (`rulebook doc`, issue 16): every
//! rule of its model in plain language, with diagrams, the author's own
//! words, rulings, claims, perft tables and worked examples, as Markdown and
//! as a static HTML page. It reads the model ([`rulebook_interpreter::model::Game`])
//! and the compiled variant, never the syntax tree.
//!
//! * [`describe`] turns each item of the model into [`describe::Section`]s of
//!   plain language; an exhaustive destructuring of the model makes sure no
//!   item can be left without its text.
//! * [`svg`] draws the setup and each piece's movement as SVG.
//! * [`book`] gathers the sections into chapters ([`Book`]), with the
//!   [`perft_table`] of the setup; [`render`] writes Markdown or HTML.

pub mod book;
pub mod describe;
pub mod diagrams;
pub mod index;
pub mod perft_table;
pub mod render;
pub mod svg;

pub use book::{build, Book, Inputs};
pub use diagrams::diagrams;
pub use render::{html, markdown, Diagrams};
