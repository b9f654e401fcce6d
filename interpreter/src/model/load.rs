//! Loading a rules file from disk without a database: parse it, follow its
//! `extends` chain, lower the chain. The CLI goes through the salsa database
//! instead; this is the same pipeline for tests and library users.

use crate::model::lower::{lower, SourceTree};
use crate::model::Game;
use rulebook_grammar::ast::{self, Span};
use rulebook_grammar::Diagnostic;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The largest input file read (rules files and their ancestors, perft
/// suites): 4 MiB, a hundred times the largest shipped rules file
/// (LANGUAGE.md §9).
pub const MAX_INPUT_BYTES: u64 = 4 * 1024 * 1024;

/// Reads the input file at `path` as UTF-8 text. Only a regular file (or a
/// link to one) of at most [`MAX_INPUT_BYTES`] is read: a FIFO, a device such
/// as `/dev/zero`, a socket or a directory is refused before it is opened
/// (opening a FIFO would wait for a writer), and a larger file is refused
/// without reading it all. The error says why (`not a regular file: it is a
/// FIFO`, `larger than 4 MiB, …`); callers put the path in front of it.
pub fn read_input(path: &Path) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let not_regular = |meta: &std::fs::Metadata| {
        Error::new(ErrorKind::InvalidInput, format!("not a regular file: it is {}", file_kind(meta)))
    };
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let too_large = || {
        Error::new(
            ErrorKind::InvalidData,
            format!("larger than {} MiB, the limit for input files", MAX_INPUT_BYTES / (1024 * 1024)),
        )
    };
    if meta.len() > MAX_INPUT_BYTES {
        return Err(too_large());
    }
    let file = std::fs::File::open(path)?;
    // The path may have been replaced since: check what was opened.
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(&meta));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::new(
            ErrorKind::InvalidData,
            format!("not UTF-8 text (byte {} is not)", e.utf8_error().valid_up_to() + 1),
        )
    })
}

/// What kind of file `meta` describes, for an error message.
fn file_kind(meta: &std::fs::Metadata) -> &'static str {
    let ty = meta.file_type();
    if ty.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ty.is_fifo() {
            return "a FIFO";
        }
        if ty.is_char_device() {
            return "a character device";
        }
        if ty.is_block_device() {
            return "a block device";
        }
        if ty.is_socket() {
            return "a socket";
        }
    }
    "not a file"
}

/// The sources read while loading, by the name diagnostics use.
pub type Sources = BTreeMap<String, String>;

/// The `extends` target of a file, if any.
pub fn extends_of(tree: &ast::File) -> Option<&ast::Spanned<String>> {
    tree.items.iter().find_map(|i| match i {
        ast::Item::Extends(p) => Some(p),
        _ => None,
    })
}

/// Resolves an `extends` path against the file that names it.
pub fn resolve(base: &Path, target: &str) -> PathBuf {
    base.parent().unwrap_or(Path::new(".")).join(target)
}

/// Reads, parses and lowers `path` and its ancestors. On failure, returns the
/// diagnostics with the sources needed to render them.
pub fn load(path: &Path) -> Result<(Game, Sources), (Vec<Diagnostic>, Sources)> {
    let mut sources = Sources::new();
    let mut trees: Vec<(String, ast::File)> = Vec::new();
    let mut current = path.to_path_buf();
    let mut from: Option<(String, Span)> = None;
    loop {
        let name = current.display().to_string();
        if trees.iter().any(|(n, _)| *n == name) {
            let (file, span) = from.unwrap_or_default();
            let d = Diagnostic::error("E0117", file, span, "`extends` goes round in a circle", "this file is already being loaded")
                .with_help("a variant cannot extend itself, directly or through others");
            return Err((vec![d], sources));
        }
        let text = match read_input(&current) {
            Ok(t) => t,
            Err(e) => {
                let d = match &from {
                    Some((file, span)) => Diagnostic::error("E0117", file.clone(), *span, format!("cannot read `{name}`: {e}"), "extended here")
                        .with_help("the path is relative to the file that says `extends`"),
                    None => Diagnostic::error("E0010", name.clone(), Span::default(), format!("cannot read `{name}`: {e}"), "")
                };
                return Err((vec![d], sources));
            }
        };
        sources.insert(name.clone(), text.clone());
        let tree = match rulebook_grammar::parse_all(&name, &text) {
            Ok(t) => t,
            Err(d) => return Err((d, sources)),
        };
        let next = extends_of(&tree).map(|e| (resolve(&current, &e.node), e.span));
        trees.push((name.clone(), tree));
        match next {
            Some((p, span)) => {
                from = Some((name, span));
                current = p;
            }
            None => break,
        }
    }
    trees.reverse();
    let chain: Vec<SourceTree> = trees.iter().map(|(n, t)| SourceTree { name: n, tree: t }).collect();
    match lower(&chain) {
        Ok(g) => Ok((g, sources)),
        Err(d) => Err((d, sources)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn devices_and_directories_are_not_read() {
        let err = read_input(Path::new("/dev/zero")).map(|_| ()).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file: it is a character device");
        let err = read_input(Path::new("/")).map(|_| ()).unwrap_err();
        assert_eq!(err.to_string(), "not a regular file: it is a directory");
        let Err((diags, _)) = load(Path::new("/dev/zero")) else { panic!("/dev/zero loaded") };
        assert_eq!(diags[0].code, "E0010");
        assert_eq!(diags[0].message, "cannot read `/dev/zero`: not a regular file: it is a character device");
    }

    #[test]
    fn input_files_are_at_most_4_mib() {
        let dir = std::env::temp_dir().join(format!("rulebook-read-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("big.rules");
        std::fs::write(&path, "#".repeat(4 * 1024 * 1024)).expect("write");
        assert_eq!(read_input(&path).map(|t| t.len()).ok(), Some(4 * 1024 * 1024));
        std::fs::write(&path, "#".repeat(4 * 1024 * 1024 + 1)).expect("write");
        let err = read_input(&path).map(|_| ()).unwrap_err();
        assert_eq!(err.to_string(), "larger than 4 MiB, the limit for input files");
        std::fs::write(&path, b"# \xff\n").expect("write");
        let err = read_input(&path).map(|_| ()).unwrap_err();
        assert_eq!(err.to_string(), "not UTF-8 text (byte 3 is not)");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
