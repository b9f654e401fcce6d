//! `rulebook lsp` driven by a real editor's LSP client: headless Neovim
//! (Debian's `neovim`, 0.7.2 on Debian 12; `scripts/setup-editor` installs
//! it, and `.ci/run` calls that) runs tests/data/lsp_neovim.lua, which
//! starts the server with `vim.lsp.start_client`, opens the files this test
//! writes, and records what the server answered as Neovim understood it:
//! the diagnostics Neovim shows (and their going once the error is fixed in
//! the buffer), hover, definition (the answer and the jump), completion, and
//! formatting applied to the buffer by Neovim. This test then checks the
//! answers. A second test runs the Neovim configuration that README.md
//! shows, as written, and checks that `.rules` buffers get the server.
//! Without an `nvim` on the PATH both say so and pass (the protocol-level
//! tests in src/lsp/tests.rs still run).

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long Neovim may run before it is killed and the test fails.
const DEADLINE: Duration = Duration::from_secs(60);

/// The editor, if there is one.
fn nvim() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("nvim")).find(|p| p.is_file())
}

/// The (0-based) line and column of the first `needle` in `text`, in bytes
/// (the files here are ASCII where it matters, so bytes are UTF-16 units).
fn line_col(text: &str, needle: &str) -> (u64, u64) {
    let offset = text.find(needle).unwrap_or_else(|| panic!("`{needle}` is in the text"));
    let before = &text[..offset];
    let line = before.matches('\n').count() as u64;
    let col = (offset - before.rfind('\n').map_or(0, |i| i + 1)) as u64;
    (line, col)
}

/// `text` badly laid out: every third line unindented, every third indented
/// by five spaces, the rest as they were (indentation carries no meaning in
/// a rules file, so it still parses).
fn messy(text: &str) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| match i % 3 {
            0 => l.trim_start().to_string(),
            1 if !l.trim().is_empty() => format!("     {}", l.trim_start()),
            _ => l.to_string(),
        })
        .collect::<Vec<_>>()
        .join("\n")
        + "\n"
}

/// What `rulebook fmt` makes of `text` (on a copy in `dir`).
fn formatted_by_cli(dir: &Path, text: &str) -> String {
    std::fs::create_dir_all(dir).expect("a folder for the copy");
    let copy = dir.join("messy.rules");
    std::fs::write(&copy, text).expect("write the copy");
    let out = Command::new(env!("CARGO_BIN_EXE_rulebook")).arg("fmt").arg(&copy).output().expect("rulebook fmt runs");
    assert!(out.status.success(), "rulebook fmt failed: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::read_to_string(&copy).expect("the formatted copy")
}

/// Runs headless Neovim in `work` with `args` (the files to open, the init
/// file) and then the Lua `script` of tests/data/, with `envs`, killing it
/// after [`DEADLINE`]; panics with its stderr when it fails.
fn run_nvim(nvim: &Path, work: &Path, args: &[&str], script: &str, envs: &[(&str, &std::ffi::OsStr)]) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(script);
    let log = work.join("nvim.log");
    let home = work.join("home");
    std::fs::create_dir_all(&home).expect("a home for Neovim");
    let mut cmd = Command::new(nvim);
    // No user config, no swap or ShaDa files; Neovim's caches and its
    // lsp.log in the temporary folder.
    cmd.args(["--headless", "-n", "-i", "NONE"])
        .args(args)
        .arg("-c")
        .arg(format!("luafile {}", script.display()))
        .current_dir(work)
        .env("XDG_CONFIG_HOME", &home)
        .env("XDG_DATA_HOME", &home)
        .env("XDG_STATE_HOME", &home)
        .env("XDG_CACHE_HOME", &home)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&log).expect("Neovim's log"))
        .stderr(std::fs::File::create(work.join("nvim.err")).expect("Neovim's error log"));
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("nvim starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("nvim's status") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            // Kill errors only mean it has just exited; the wait reaps it.
            let _ = child.kill();
            let _ = child.wait();
            panic!("nvim ran for over {} s and was killed; stderr: {}", DEADLINE.as_secs(), std::fs::read_to_string(work.join("nvim.err")).unwrap_or_default());
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    eprintln!("nvim finished in {:.1} s", started.elapsed().as_secs_f64());
    assert!(status.success(), "nvim exited with {status}; stderr: {}", std::fs::read_to_string(work.join("nvim.err")).unwrap_or_default());
}

#[test]
fn neovim_gets_diagnostics_hover_definition_completion_and_formatting() {
    let Some(nvim) = nvim() else {
        eprintln!("skipped: nvim not found; scripts/setup-editor installs it");
        return;
    };
    let chess = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.rules")).expect("rules/chess.rules");
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let dir = tmp.path().join("rules");
    std::fs::create_dir_all(&dir).expect("the rules folder");

    // chess.rules with a misspelt promotion target: E0105, unknown piece.
    let broken = chess.replacen("to Queen Rook Bishop Knight", "to Queen Rook Bishop Knigt", 1);
    assert_ne!(broken, chess, "chess.rules promotes to Queen Rook Bishop Knight");
    let parent = dir.join("chess.rules");
    std::fs::write(&parent, &broken).expect("write chess.rules");
    let child = "extends \"chess.rules\"\nvariant \"Mini\"\nclaim knights: Knight moves keep colour\n";
    std::fs::write(dir.join("child.rules"), child).expect("write child.rules");
    let messy = messy(&chess);
    std::fs::write(dir.join("messy.rules"), &messy).expect("write messy.rules");
    let out_path = tmp.path().join("answers.json");

    let bin = env!("CARGO_BIN_EXE_rulebook");
    run_nvim(
        &nvim,
        tmp.path(),
        &["--clean"],
        "lsp_neovim.lua",
        &[("RULEBOOK_BIN", bin.as_ref()), ("RULEBOOK_DIR", dir.as_os_str()), ("RULEBOOK_OUT", out_path.as_os_str())],
    );
    let text = std::fs::read_to_string(&out_path).expect("the script wrote its answers");
    let a: Value = serde_json::from_str(&text).expect("the answers are JSON");
    eprintln!("Neovim {}", a["nvim"]);
    assert_eq!(a.get("error"), None, "the script failed after steps {}: {}", a["steps"], a["error"]);
    assert_eq!(a["steps"].as_array().map(Vec::len), Some(8), "every step ran: {}", a["steps"]);
    assert_eq!(a["initialized"], true, "the client initialized the server");

    // The diagnostic, as Neovim holds it: code, line and column of `Knigt`.
    assert_eq!(a["diagnostics_arrived"], true, "diagnostics on open");
    let diags = a["diagnostics"].as_array().expect("a list of diagnostics");
    assert_eq!(diags.len(), 1, "{diags:?}");
    let (line, col) = line_col(&broken, "Knigt");
    assert_eq!(diags[0]["code"], "E0105", "{diags:?}");
    assert_eq!((diags[0]["lnum"].as_u64(), diags[0]["col"].as_u64()), (Some(line), Some(col)), "{diags:?}");
    assert!(diags[0]["message"].as_str().is_some_and(|m| m.contains("unknown piece `Knigt`")), "{diags:?}");
    // Fixed in the buffer (a didChange from Neovim's change tracking): gone.
    assert_eq!(a["diagnostics_cleared"], true, "diagnostics after the fix: {}", a["diagnostics_after_fix"]);

    // Hover on `Rook`: its movement, and 7 + 7 cells from d4.
    assert_eq!(a["rook_line"].as_u64(), Some(line_col(&broken, "piece Rook R").0));
    let hover = a["hover"]["contents"]["value"].as_str().unwrap_or_else(|| panic!("a markdown hover: {}", a["hover"]));
    assert!(hover.contains("**Rook (R)**") && hover.contains("orthogonally"), "{hover}");
    assert!(hover.contains("reaches 14 cells"), "{hover}");

    // Definition of `Knight` in the child: chess.rules, at `piece Knight N`.
    let knight = line_col(&broken, "piece Knight N");
    let def = &a["definition"];
    let def = def.as_array().and_then(|d| d.first()).unwrap_or(def);
    let uri = def["uri"].as_str().unwrap_or_else(|| panic!("a location: {def}"));
    assert!(uri.starts_with("file://") && uri.ends_with("/rules/chess.rules"), "{uri}");
    assert_eq!(def["range"]["start"]["line"].as_u64(), Some(knight.0), "{def}");
    // vim.lsp.buf.definition() opened the parent with the cursor there.
    assert_eq!(a["jumped"], true, "the editor jumped: {}", a["jump"]);
    assert_eq!(a["jump"]["file"].as_str().map(PathBuf::from), Some(parent.clone()), "{}", a["jump"]);
    assert_eq!(a["jump"]["cursor"][0].as_u64(), Some(knight.0 + 1), "{}", a["jump"]);

    // Completion in a piece's block: its parts, not the top level's keywords.
    let labels: Vec<&str> = a["completion"].as_array().expect("labels").iter().filter_map(Value::as_str).collect();
    assert!(labels.contains(&"royal") && labels.contains(&"move"), "{labels:?} ({})", a["completion_error"]);
    assert!(!labels.contains(&"board"), "{labels:?}");

    // Formatting, applied by Neovim: the buffer as `rulebook fmt` writes it.
    let formatted = a["formatted"].as_str().unwrap_or_else(|| panic!("the buffer: {}", a["formatting_error"]));
    let expected = formatted_by_cli(&tmp.path().join("fmt"), &messy);
    assert_ne!(formatted, messy, "formatting changed the buffer");
    assert_eq!(formatted, expected, "Neovim's buffer after formatting differs from `rulebook fmt`");
    assert!(formatted.contains("piece Rook R {\n  move ride W\n}\n"), "{formatted}");

    // The client's shutdown and exit: the server stopped cleanly.
    assert_eq!(a["exit"]["code"].as_u64(), Some(0), "the server's exit: {}", a["exit"]);
}

/// The Lua block of README.md's "Editor support" that starts with `first`.
fn readme_block(first: &str) -> String {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).expect("README.md");
    let start = readme.find(&format!("```lua\n{first}\n")).unwrap_or_else(|| panic!("README.md has a Lua block starting `{first}`")) + "```lua\n".len();
    let len = readme[start..].find("```").expect("the block ends");
    readme[start..start + len].to_string()
}

#[test]
fn the_neovim_configuration_in_the_readme_attaches_the_server() {
    let Some(nvim) = nvim() else {
        eprintln!("skipped: nvim not found; scripts/setup-editor installs it");
        return;
    };
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let work = tmp.path();
    std::fs::write(work.join("init.lua"), readme_block("-- rulebook: Neovim 0.7+")).expect("write init.lua");
    let chess = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/chess.rules")).expect("rules/chess.rules");
    std::fs::write(work.join("chess.rules"), chess.replacen("to Queen Rook Bishop Knight", "to Queen Rook Bishop Knigt", 1)).expect("write chess.rules");
    std::fs::write(work.join("child.rules"), "extends \"chess.rules\"\nvariant \"Mini\"\n").expect("write child.rules");
    // The configuration starts `rulebook` from the PATH: this build's first.
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_rulebook")).parent().expect("the binary's folder");
    let path = std::env::join_paths(std::iter::once(bin_dir.to_path_buf()).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()))).expect("a PATH");
    let out_path = work.join("seen.json");
    run_nvim(&nvim, work, &["-u", "init.lua", "chess.rules"], "lsp_neovim_readme.lua", &[("PATH", path.as_os_str()), ("RULEBOOK_OUT", out_path.as_os_str())]);
    let seen: Value = serde_json::from_str(&std::fs::read_to_string(&out_path).expect("the script wrote what it saw")).expect("JSON");
    assert_eq!(seen.get("error"), None, "{seen}");
    assert_eq!((&seen["filetype"], &seen["commentstring"]), (&Value::from("rules"), &Value::from("# %s")), "{seen}");
    assert_eq!(seen["diagnostics_arrived"], true, "{seen}");
    assert_eq!(seen["first"]["codes"], serde_json::json!(["E0105"]), "{seen}");
    assert_eq!(seen["first"]["clients"], serde_json::json!([{ "id": 1, "name": "rulebook" }]), "{seen}");
    // The second file shares the server (one client for every .rules buffer).
    assert_eq!(seen["second"]["clients"], seen["first"]["clients"], "{seen}");
    assert_eq!(seen["active"], 1, "{seen}");
    // README's way to see that it runs.
    assert_eq!(seen["inspect"], "{ \"rulebook\" }", "{seen}");
    assert_eq!(seen["stopped"], true, "{seen}");
}
