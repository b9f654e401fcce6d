//! The rules language's front end: the pest grammar (`grammar/rules.pest`), the
//! parser that turns a `.rules` file into a [`ast::File`] with spans, and the
//! [`Diagnostic`] values every layer reports problems with.

pub mod ast;
pub mod diagnostic;

pub use diagnostic::{Diagnostic, Note, Severity};
