//! Snapshots of the perft table of every rules file in rules/ from its setup,
//! to the deepest depth that stays under a node budget (so `cargo test` stays
//! fast). The published counts are asserted in perft_suites.rs; these tables
//! record every variant's counts, including those no one has published, so
//! that any change to them is seen and reviewed. With face-down pieces the
//! counts are leaves of the chance tree: each reveal outcome is its own branch.
//! Variants with chance events also show, per depth, the leaves counted by the
//! last ply's decisions (each chance node once) and the leaves that are chance
//! outcomes (reveals, collisions, tunnels) of the last ply.

use rulebook_interpreter::{model::load::load, engine::perft::{perft, perft_detail}, Variant};
use std::fmt::Write;
use std::path::Path;
use std::sync::Arc;

/// A depth is tabled while the previous one stayed under this many nodes.
const BUDGET: u64 = 300_000;

#[test]
fn perft_tables_of_every_rules_file() {
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let mut files: Vec<_> = std::fs::read_dir(root.join("rules"))
        .expect("rules/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rules"))
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(root.join("snapshots/perft"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        for path in files {
            let (game, _) = load(&path).unwrap_or_else(|(d, _)| panic!("{}: {d:?}", path.display()));
            let v = Variant::new(Arc::new(game));
            let pos = v.start().expect("setup parses");
            let mut table = format!("{}\nsetup {}\n", v.game.name, v.game.setup);
            if pos.any_hidden() {
                // Face-down pieces: the start as the interpreter reads it, with pools.
                let _ = writeln!(table, "start {}", v.fen(&pos));
            }
            // Variants with chance events: the leaves that are chance outcomes,
            // and the count with each last-ply chance node counted once.
            let chance = pos.any_hidden() || v.game.spread.is_some() || v.game.tunnel.is_some();
            table.push_str(if chance { "\ndepth nodes decisions outcomes\n" } else { "\ndepth nodes\n" });
            let mut last = 1;
            let mut depth = 1;
            while last < BUDGET && depth <= 6 {
                if chance {
                    let d = perft_detail(&v, &pos, depth);
                    assert_eq!(d.nodes, perft(&v, &pos, depth), "perft and perft_detail agree");
                    last = d.nodes;
                    let _ = writeln!(table, "{depth:>5} {} {} {}", d.nodes, d.decisions, d.outcomes);
                } else {
                    last = perft(&v, &pos, depth);
                    let _ = writeln!(table, "{depth:>5} {last}");
                }
                depth += 1;
            }
            let name = path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
            insta::assert_snapshot!(format!("perft-{name}"), table);
        }
    });
}
