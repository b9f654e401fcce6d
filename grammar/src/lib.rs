//! The rules language's front end: the pest grammar (`grammar/rules.pest`), the
//! parser that turns a `.rules` file into a [`ast::File`] with spans, and the
//! [`Diagnostic`] values every layer reports problems with, rendered to text by
//! [`render`] (ariadne, byte offsets).
//!
//! ```
//! let file = rulebook_grammar::parse("mini.rules", "piece King K { royal move W }").unwrap();
//! assert_eq!(file.items.len(), 1);
//!
//! let err = rulebook_grammar::parse("bad.rules", "piece King { royal }").unwrap_err();
//! assert_eq!(err.code, "E0001");
//! let text = rulebook_grammar::render(&err, "piece King { royal }", false);
//! assert!(text.contains("expected the piece's letter"));
//! ```

#![warn(missing_docs)]

// Diagnostics are returned by value (they are what users see); boxing them
// would only move the allocation.
#![allow(clippy::result_large_err)]

pub mod ast;
pub mod complete;
pub mod diagnostic;
mod docs;
mod errors;
pub mod format;
mod parser;
mod render;

pub use diagnostic::{Diagnostic, Note, Severity};
pub use parser::{parse, parse_all, parse_partial};
pub use render::{render, render_all};
