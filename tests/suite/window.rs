//! The real release window under Xvfb, driven like a person at the table would drive it, with
//! the X server's own key repeat (`tests/window/table_gestures.py` through the workplace's
//! `tablebot.py`). Needs Xvfb, AT-SPI and xdotool (Debian packages that `.ci/run` installs) and
//! the shared tools folder beside the checkout, so it is ignored by a plain `cargo test` and run
//! by `.ci/run` (`cargo test -- --include-ignored`). When it runs it must pass: it fails, never
//! skips, when something it needs is missing.

use std::path::Path;
use std::process::Command;

#[test]
#[ignore = "needs Xvfb + AT-SPI + xdotool and ../shared/tools; .ci/run installs them and runs ignored tests"]
fn holding_space_in_the_real_window_ends_exactly_one_turn() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tablebot = root.join("../shared/tools");
    assert!(
        tablebot.join("tablebot.py").exists(),
        "tablebot.py is missing at {}",
        tablebot.display()
    );
    let out = tempfile::tempdir().expect("temporary folder");
    let output = Command::new("/usr/bin/python3")
        .arg(root.join("tests/window/table_gestures.py"))
        .arg(env!("CARGO_BIN_EXE_rummikub-companion"))
        .arg(&tablebot)
        .arg(out.path())
        .output()
        .expect("Debian's /usr/bin/python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the window failed a table gesture:\n{stdout}\n{stderr}"
    );
    let result: serde_json::Value =
        serde_json::from_str(stdout.trim().lines().last().unwrap_or("")).expect("one JSON line");
    assert_eq!(result["checks"]["hold_space_1_5s_turns"], 1, "{result}");
    assert_eq!(result["checks"]["double_click_turns_total"], 2, "{result}");
}

#[test]
#[ignore = "needs Xvfb + AT-SPI + xdotool and ../shared/tools; .ci/run installs them and runs ignored tests"]
fn the_window_starts_with_a_malformed_alsa_configuration() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().expect("temporary folder");
    let output = Command::new("/usr/bin/python3")
        .arg(root.join("tests/window/bad_alsa.py"))
        .arg(env!("CARGO_BIN_EXE_rummikub-companion"))
        .arg(root.join("../shared/tools"))
        .arg(out.path())
        .output()
        .expect("Debian's /usr/bin/python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "the window did not come up with a bad ALSA config:\n{stdout}\n{stderr}"
    );
}
