//! The syntax error corpus: every `examples/errors/syntax-*.rules` file has
//! one syntax problem (`syntax-several-*` files have several); its rendered
//! diagnostics (colour off) are snapshotted in `snapshots/grammar/` at the top
//! of the workspace. `parse` reports the first problem, `parse_all` every one.
//!
//! Review changes with `cargo insta review` (or `INSTA_UPDATE=always` to accept).

use std::path::Path;

#[test]
fn syntax_errors() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("../snapshots/grammar"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("../../examples/errors", "syntax-*.rules", |path| {
            let source = std::fs::read_to_string(path).expect("readable corpus file");
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let first_line = source.lines().next().unwrap_or("");
            assert!(
                first_line.starts_with('#'),
                "{name}: the first line must say what is wrong"
            );
            let first = match rulebook_grammar::parse(&name, &source) {
                Ok(_) => panic!("{name} parsed without error"),
                Err(diag) => diag,
            };
            let all = match rulebook_grammar::parse_all(&name, &source) {
                Ok(_) => panic!("{name} parsed without error by parse_all"),
                Err(diags) => diags,
            };
            assert_eq!(all[0], first, "{name}: parse_all starts with parse's error");
            if !name.starts_with("syntax-several-") {
                assert_eq!(all.len(), 1, "{name}: one problem, one report");
            }
            for diag in &all {
                assert_ne!(diag.code, "E0000", "{name}: internal error");
                assert!(diag.help.is_some(), "{name}: no help line");
            }
            let reports: Vec<String> = all.iter().map(|d| rulebook_grammar::render(d, &source, false)).collect();
            insta::assert_snapshot!(reports.join("\n"));
        });
    });
}
