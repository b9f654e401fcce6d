//! The HTML rulebook of every file in rules/ (and of the rules/fairy/ files
//! that show a mechanism of their own: the others use the same templates
//! on chess's board, about a second of Chromium each), opened in
//! headless Chromium (Debian's `chromium`; `scripts/setup-browser` installs
//! it, and `.ci/run` calls that): every SVG is drawn with a box wider and
//! taller than zero, and the page logs no error to the console. Without a
//! `chromium` on the PATH the test says so and passes (the pages are still
//! written and parsed by the other tests).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The browser, if there is one.
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("chromium")).find(|p| p.is_file())
}

/// Appends to `page` a script that, once the page has loaded, writes every
/// SVG's box and every error into the DOM, in `<pre id="probe">`.
fn with_probe(page: &str) -> String {
    let probe = r#"<script>
const errors = [];
window.addEventListener('error', e => errors.push('error: ' + e.message));
const original = console.error;
console.error = (...a) => { errors.push('console: ' + a.join(' ')); original(...a); };
window.addEventListener('load', () => {
  const boxes = [...document.querySelectorAll('svg')].map(s => { const r = s.getBoundingClientRect(); return Math.round(r.width) + 'x' + Math.round(r.height); });
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = 'boxes ' + boxes.join(' ') + '\nerrors ' + errors.length + (errors.length ? '\n' + errors.join('\n') : '');
  document.body.appendChild(pre);
});
</script>"#;
    page.replace("</body>", &format!("{probe}\n</body>"))
}

#[test]
fn every_rulebook_page_draws_its_diagrams_without_errors() {
    let Some(browser) = chromium() else {
        eprintln!("skipped: no `chromium` on the PATH (scripts/setup-browser installs Debian's); the HTML pages were not rendered");
        return;
    };
    let out = tempfile::tempdir().expect("a temporary folder");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let status = Command::new(env!("CARGO_BIN_EXE_rulebook"))
        .current_dir(root)
        .args(["doc", "rules", "--format", "html", "--no-check", "--perft-depth", "1", "-o"])
        .arg(out.path())
        .status()
        .expect("rulebook doc runs");
    assert!(status.success(), "rulebook doc failed");
    let mut pages = Vec::new();
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("the output").flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.file_name().is_some_and(|n| n == "rulebook.html") {
                out.push(p);
            }
        }
    }
    walk(out.path(), &mut pages);
    pages.sort();
    assert!(pages.len() >= 15, "one page per rules file: {pages:?}");
    /// The fairy pages opened: one per mechanism beyond chess's, and the boards with holes.
    const FAIRY: &[&str] = &["atomic", "giveaway", "horde", "3check", "kingofthehill", "placement", "sittuyin", "omicron", "grand"];
    pages.retain(|p| {
        let fairy = p.parent().and_then(|d| d.parent()).is_some_and(|d| d.file_name().is_some_and(|n| n == "fairy"));
        !fairy || p.parent().and_then(|d| d.file_name()).and_then(|n| n.to_str()).is_some_and(|n| FAIRY.contains(&n))
    });
    assert_eq!(pages.iter().filter(|p| p.to_string_lossy().contains("/fairy/")).count(), FAIRY.len(), "every listed fairy page was written");
    for page in &pages {
        let probed = page.with_file_name("probed.html");
        std::fs::write(&probed, with_probe(&std::fs::read_to_string(page).expect("the page"))).expect("write");
        // At most a minute a page (`timeout` from coreutils), so a browser that hangs fails the test.
        let output = Command::new("timeout")
            .arg("60")
            .arg(&browser)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1200,900", "--virtual-time-budget=5000", "--dump-dom"])
            .arg(format!("file://{}", probed.display()))
            .output()
            .expect("chromium runs");
        let dom = String::from_utf8_lossy(&output.stdout);
        let probe = dom.split("<pre id=\"probe\">").nth(1).and_then(|s| s.split("</pre>").next()).unwrap_or_else(|| panic!("{}: no probe in the DOM", page.display()));
        let mut lines = probe.lines();
        let boxes: Vec<&str> = lines.next().unwrap_or("").trim_start_matches("boxes").split_whitespace().collect();
        let svgs = std::fs::read_to_string(page).expect("the page").matches("<svg").count();
        assert_eq!(boxes.len(), svgs, "{}: every SVG is in the DOM", page.display());
        for b in &boxes {
            let (w, h) = b.split_once('x').expect("WxH");
            assert!(w.parse::<u32>().unwrap_or(0) > 0 && h.parse::<u32>().unwrap_or(0) > 0, "{}: an SVG drawn {b}", page.display());
        }
        assert_eq!(lines.next(), Some("errors 0"), "{}: {probe}", page.display());
    }
}
