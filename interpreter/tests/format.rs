//! `rulebook fmt` on every rules file of the repository (`rules/`, `examples/`,
//! recursively): the formatter (`rulebook_grammar::format`) is idempotent, keeps
//! every comment in order, leaves the syntax tree and the lowered model as they
//! were (spans aside), and gives the same text for a badly laid out copy of a
//! file as for the file itself. Files that do not parse (`examples/errors/`
//! has some on purpose) are checked for idempotence and comments only.

use std::path::{Path, PathBuf};

use rulebook_grammar::format::{format, format_source};
use rulebook_interpreter::model::load::{extends_of, resolve};
use rulebook_interpreter::model::lower::{lower, SourceTree};

/// The workspace root (the interpreter crate's parent).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every `.rules` file below `dir`, sorted.
fn rules_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir).expect("readable directory").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            rules_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rules") {
            out.push(path);
        }
    }
}

/// All the repository's rules files.
fn all_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    rules_files(&root().join("rules"), &mut files);
    rules_files(&root().join("examples"), &mut files);
    assert!(files.len() > 200, "expected the repository's rules files, found {}", files.len());
    files
}

/// The comments of a text, in order: for each line, what follows the first
/// `#` outside a string (a string is `"…"` on one line, `\` escaping the next
/// character), trailing whitespace dropped. Written here, apart from the
/// formatter's own scanner, so that the two check each other.
fn comments(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for line in text.lines() {
        let mut in_string = false;
        let mut escaped = false;
        for (i, c) in line.char_indices() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                }
            } else if c == '"' {
                in_string = true;
            } else if c == '#' {
                found.push(line[i..].trim_end().to_string());
                break;
            }
        }
    }
    found
}

/// `Debug` text with every span's offsets replaced, so that trees and models of
/// texts that differ only in layout compare equal.
fn without_spans(debug: &str) -> String {
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(at) = rest.find("Span { start: ") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        match after.find('}') {
            Some(end) => {
                out.push_str("Span { .. }");
                rest = &after[end + 1..];
            }
            None => {
                rest = after;
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The chain of `path` (itself and its ancestors through `extends`), each
/// file's text passed through `edit`, lowered root first; the `Debug` text of
/// the model or of the diagnostics, spans removed. `None` when some file of the
/// chain does not parse.
fn lowered(path: &Path, edit: &dyn Fn(&str) -> String) -> Option<String> {
    let mut files: Vec<(String, rulebook_grammar::ast::File)> = Vec::new();
    let mut current = path.to_path_buf();
    for _ in 0..16 {
        let name = current.display().to_string();
        let text = edit(&std::fs::read_to_string(&current).ok()?);
        let tree = rulebook_grammar::parse(&name, &text).ok()?;
        let next = extends_of(&tree).map(|e| resolve(&current, &e.node));
        files.push((name, tree));
        match next {
            Some(p) => current = p,
            None => break,
        }
    }
    files.reverse();
    let chain: Vec<SourceTree> = files.iter().map(|(name, tree)| SourceTree { name, tree }).collect();
    Some(without_spans(&format!("{:?}", lower(&chain))))
}

/// The text of a file, formatted (the formatter must not refuse any file here).
fn formatted(path: &Path, text: &str) -> String {
    match format_source(&path.display().to_string(), text) {
        Ok(f) => f.text,
        Err(d) => panic!("{}: the formatter refused the file: {} {}", path.display(), d.code, d.message),
    }
}

#[test]
fn formatting_is_idempotent_and_keeps_every_comment() {
    for path in all_files() {
        let text = std::fs::read_to_string(&path).expect("readable");
        let once = formatted(&path, &text);
        let twice = formatted(&path, &once);
        assert_eq!(once, twice, "{}: formatting twice changes the text", path.display());
        assert_eq!(comments(&text), comments(&once), "{}: the comments changed", path.display());
        let before = rulebook_grammar::parse(&path.display().to_string(), &text).is_ok();
        let after = rulebook_grammar::parse(&path.display().to_string(), &once).is_ok();
        assert_eq!(before, after, "{}: whether the file parses changed", path.display());
    }
}

#[test]
fn formatting_keeps_the_syntax_tree() {
    let mut parsed = 0;
    for path in all_files() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        let Ok(tree) = rulebook_grammar::parse(&name, &text) else { continue };
        parsed += 1;
        let once = formatted(&path, &text);
        let again = rulebook_grammar::parse(&name, &once).unwrap_or_else(|d| panic!("{name}: the formatted text does not parse: {}", d.message));
        assert_eq!(
            without_spans(&format!("{tree:?}")),
            without_spans(&format!("{again:?}")),
            "{name}: the syntax tree changed"
        );
    }
    assert!(parsed > 150, "only {parsed} files parsed");
}

#[test]
fn formatting_keeps_the_model() {
    let format_text = |text: &str| format(text).expect("not refused");
    let mut models = 0;
    for path in all_files() {
        let Some(before) = lowered(&path, &|t| t.to_string()) else { continue };
        let after = lowered(&path, &format_text).unwrap_or_else(|| panic!("{}: a formatted file of its chain does not parse", path.display()));
        if before.starts_with("Ok(") {
            models += 1;
        }
        assert!(before == after, "{}: the lowered model (or its diagnostics) changed", path.display());
    }
    assert!(models > 100, "only {models} files lowered to a model");
}

/// Applies `edit` to the pieces of each line's code that lie outside strings;
/// the comment and the spaces before it are left as they are.
fn edit_code(text: &str, edit: &dyn Fn(&str) -> String) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let (code, comment) = match comments(line).first() {
            Some(c) => {
                let at = line.rfind(c.as_str()).expect("comment in its line");
                let code = line[..at].trim_end();
                (code, &line[code.len()..])
            }
            None => (line, ""),
        };
        // Split the code at its strings; edit only what lies outside them.
        let mut pieces = Vec::new();
        let mut in_string = false;
        let mut escaped = false;
        let mut start = 0;
        for (i, c) in code.char_indices() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                    pieces.push(code[start..=i].to_string());
                    start = i + 1;
                }
            } else if c == '"' {
                pieces.push(edit(&code[start..i]));
                in_string = true;
                start = i;
            }
        }
        pieces.push(if in_string { code[start..].to_string() } else { edit(&code[start..]) });
        out.push_str(&pieces.concat());
        out.push_str(comment);
        out.push('\n');
    }
    out
}

#[test]
fn a_badly_laid_out_copy_formats_like_the_original() {
    // Indentation stripped from every line.
    let stripped = |text: &str| text.lines().map(|l| l.trim_start().to_string() + "\n").collect::<String>();
    // Runs of two or more spaces between tokens widened to five (the formatter
    // keeps the author's choice between one space and two, LANGUAGE §2), the
    // indentation tripled, blank lines doubled, trailing spaces added.
    let widened = |text: &str| {
        let indented: String = text.lines().map(|l| " ".repeat(2 * (l.len() - l.trim_start().len())) + l + "\n").collect();
        let text = edit_code(&indented, &|code| {
            let mut out = String::new();
            let mut spaces = 0;
            for c in code.chars() {
                if c == ' ' {
                    spaces += 1;
                    continue;
                }
                out.push_str(if spaces >= 2 { "     " } else { &"  "[..spaces] });
                spaces = 0;
                out.push(c);
            }
            out.push_str(&" ".repeat(spaces));
            out
        });
        text.replace("\n\n", "\n\n\n").replace('\n', "  \n")
    };
    // Every single space between tokens a tab (tabs are whitespace like spaces).
    let tabbed = |text: &str| {
        edit_code(text, &|code| {
            let chars: Vec<char> = code.chars().collect();
            let mut out = String::new();
            for (i, c) in chars.iter().enumerate() {
                let single = *c == ' ' && chars.get(i + 1).is_some_and(|n| *n != ' ') && i > 0 && chars[i - 1] != ' ';
                out.push(if single { '\t' } else { *c });
            }
            out
        })
    };
    let mut checked = 0;
    for path in all_files() {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(&path).expect("readable");
        if rulebook_grammar::parse(&name, &text).is_err() {
            continue;
        }
        checked += 1;
        let expected = formatted(&path, &text);
        for (how, copy) in [("stripped", stripped(&text)), ("widened", widened(&text)), ("tabbed", tabbed(&text))] {
            assert!(rulebook_grammar::parse(&name, &copy).is_ok(), "{name}: the {how} copy does not parse (a bug in this test)");
            let got = formatted(&path, &copy);
            if got != expected {
                let line = expected.lines().zip(got.lines()).position(|(a, b)| a != b).unwrap_or(0);
                panic!(
                    "{name}: the {how} copy formats differently, first at line {}:\n  expected: {:?}\n  got:      {:?}",
                    line + 1,
                    expected.lines().nth(line),
                    got.lines().nth(line)
                );
            }
        }
    }
    assert!(checked > 150, "only {checked} files checked");
}

#[test]
fn the_comment_scanner_of_this_test_reads_strings() {
    assert_eq!(comments("a \"# no\" b # yes \n# line\n\"\\\"#\" # esc"), vec!["# yes", "# line", "# esc"]);
}
