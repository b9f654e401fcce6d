//! The corpus of rules files with semantic errors (examples/errors/semantic-*.rules):
//! each must fail to load, and its rendered reports are snapshots in
//! snapshots/interpreter/ (reviewed by hand, never blanket-accepted).

use rulebook_interpreter::model::load::load;
use std::path::Path;

#[test]
fn semantic_error_corpus() {
    // Run from the workspace root so that reports name files as users see them.
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    std::env::set_current_dir(root).expect("workspace root exists");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(root.join("snapshots/interpreter"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        let mut files: Vec<_> = std::fs::read_dir("examples/errors")
            .expect("corpus exists")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("semantic-")))
            .collect();
        files.sort();
        assert!(files.len() >= 15, "corpus has {} files", files.len());
        for path in files {
            let name = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
            let (diags, sources) = match load(&path) {
                Ok(_) => panic!("{} loaded without error", path.display()),
                Err(e) => e,
            };
            assert!(!diags.is_empty());
            let report: Vec<String> = diags
                .iter()
                .map(|d| rulebook_grammar::render(d, sources.get(&d.file).map(String::as_str).unwrap_or(""), false))
                .collect();
            insta::assert_snapshot!(name, report.join("\n"));
        }
    });
}
