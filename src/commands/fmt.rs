//! `rulebook fmt`: formats rules files in place, or with `--check` says which
//! would change. The layout rules are `rulebook_grammar::format`'s.
//!
//! Each argument is a file (formatted whatever its name) or a folder (every
//! `.rules` file below it, sorted by path). Every file is handled even when an
//! earlier one fails; the exit status is the worst outcome: 2 when a file or
//! folder cannot be read, written or formatted (an `error:` line or the
//! diagnostic, with its path), else 1 when `--check` found a file that would
//! change, else 0.
//!
//! `--check` writes nothing; for each file that would change it prints
//! `PATH: line N differs` (the first line that differs) and that line before
//! (`  -`) and after (`  +`). Without `--check`, each rewritten file's path is
//! printed after `formatted `.
//!
//! A file that does not parse is formatted with the line rules only (trailing
//! whitespace, tabs, blank lines, the final newline; its indentation and
//! spacing are kept), and a `note:` on stderr names it with its parse error;
//! that is not a failure, so `rulebook fmt --check rules examples` passes
//! with the deliberately broken files of `examples/errors/`.

use super::Context;
use crate::cli::FmtArgs;
use crate::report::{self, Failure, EXIT_FAILED, EXIT_USAGE};
use rulebook_grammar::format::format_source;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs `rulebook fmt`.
pub fn run(args: &FmtArgs, cx: Context) -> Result<u8, Failure> {
    let mut errors = String::new();
    let mut files = Vec::new();
    for path in &args.paths {
        if path.is_dir() {
            if let Err(e) = rules_below(path, &mut files) {
                errors.push_str(&format!("error: cannot read the folder `{}`: {e}\n", path.display()));
            }
        } else {
            files.push(path.clone());
        }
    }
    let mut out = String::new();
    let mut notes = String::new();
    let mut would_change = false;
    for path in &files {
        let name = path.display().to_string();
        let text = match rulebook_interpreter::model::load::read_input(path) {
            Ok(text) => text,
            Err(e) => {
                errors.push_str(&format!("error: cannot read the rules file `{name}`: {e}\n"));
                continue;
            }
        };
        let formatted = match format_source(&name, &text) {
            Ok(f) => f,
            Err(d) => {
                errors.push_str(&report::render(std::slice::from_ref(&d), |n| (n == name).then(|| text.clone()), cx.color));
                continue;
            }
        };
        if let Some(d) = &formatted.unparsed {
            let (line, column) = line_column(&text, d.span.start);
            notes.push_str(&format!(
                "note: `{name}` does not parse ({} at {line}:{column}: {}); only its trailing whitespace, tabs and blank lines were formatted\n",
                d.code, d.message
            ));
        }
        if formatted.text == text {
            continue;
        }
        if args.check {
            would_change = true;
            out.push_str(&first_difference(&name, &text, &formatted.text));
        } else if let Err(e) = std::fs::write(path, &formatted.text) {
            errors.push_str(&format!("error: cannot write the rules file `{name}`: {e}\n"));
        } else {
            out.push_str(&format!("formatted {name}\n"));
        }
    }
    eprint!("{notes}");
    let mut stdout = std::io::stdout().lock();
    if stdout.write_all(out.as_bytes()).and_then(|()| stdout.flush()).is_err() {
        return Ok(report::EXIT_BROKEN_PIPE);
    }
    if !errors.is_empty() {
        let mut failure = Failure::reports(EXIT_USAGE, errors);
        failure.kind = "input";
        return Err(failure);
    }
    Ok(if would_change { EXIT_FAILED } else { 0 })
}

/// Adds every `.rules` file below `dir` to `files`, sorted by path.
fn rules_below(dir: &Path, files: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let path = entry?.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rules") {
                found.push(path);
            }
        }
    }
    found.sort();
    files.extend(found);
    Ok(())
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// `--check`'s report of a file that would change: its path, then the first
/// line that differs, before and after.
fn first_difference(name: &str, before: &str, after: &str) -> String {
    let old: Vec<&str> = before.lines().collect();
    let new: Vec<&str> = after.lines().collect();
    let at = (0..old.len().max(new.len())).find(|&i| old.get(i) != new.get(i));
    match at {
        Some(i) => {
            let show = |line: Option<&&str>| line.map_or("(no line)".to_string(), |l| l.to_string());
            format!("{name}: line {} differs\n  -{}\n  +{}\n", i + 1, show(old.get(i)), show(new.get(i)))
        }
        // Same lines: only the line endings or the final newline differ.
        None => format!("{name}: the line endings or the final newline differ\n"),
    }
}
