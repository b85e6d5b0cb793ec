//! The real release window under Xvfb, driven like a person at the table would drive it, with
//! the X server's own key repeat (`tests/window/*.py` through the project's own driver,
//! `tests/window/driver.py`). Needs Xvfb, AT-SPI and xdotool (Debian packages that `.ci/run`
//! installs), so it is ignored by a plain `cargo test` and run by `.ci/run`
//! (`cargo test -- --include-ignored`). When it runs it must pass: it fails, never skips, when
//! something it needs is missing.

use std::path::Path;
use std::process::Command;

/// Runs one of `tests/window/*.py` against the built binary; its last line of output is a JSON
/// object. Fails (never skips) when the script fails or its tools are missing.
fn run_script(script: &str) -> serde_json::Value {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().expect("temporary folder");
    let output = Command::new("/usr/bin/python3")
        .arg(root.join("tests/window").join(script))
        .arg(env!("CARGO_BIN_EXE_rummikub-companion"))
        .arg(out.path())
        .output()
        .expect("Debian's /usr/bin/python3 runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{script} failed in the real window:\n{stdout}\n{stderr}"
    );
    serde_json::from_str(stdout.trim().lines().last().unwrap_or("")).expect("one JSON line")
}

#[test]
#[ignore = "needs Xvfb + AT-SPI + xdotool; .ci/run installs them and runs ignored tests"]
fn holding_space_in_the_real_window_ends_exactly_one_turn() {
    let result = run_script("table_gestures.py");
    assert_eq!(result["checks"]["hold_space_1_5s_turns"], 1, "{result}");
    assert_eq!(result["checks"]["double_click_turns_total"], 2, "{result}");
}

#[test]
#[ignore = "needs Xvfb + AT-SPI + xdotool; .ci/run installs them and runs ignored tests"]
fn the_window_starts_with_a_malformed_alsa_configuration() {
    let result = run_script("bad_alsa.py");
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["clock"], "Running", "{result}");
}

#[test]
#[ignore = "needs Xvfb + AT-SPI + xdotool; .ci/run installs them and runs ignored tests"]
fn save_csv_as_without_a_save_dialog_saves_in_the_exports_folder_and_export_picture_writes_a_png() {
    let result = run_script("save_as.py");
    assert_eq!(result["ok"], true, "{result}");
    assert_eq!(result["checks"]["bom"], true, "{result}");
    // Regression: the picture's path was dropped on the frame before the screenshot came.
    assert_eq!(
        result["checks"]["pictures"].as_array().map(Vec::len),
        Some(1),
        "{result}"
    );
}
