//! Running the built binary as a user would (the command line's tests). Apart from `util`,
//! which the benches include by path and which must not name the binary (a bench has none).

/// Runs the built binary with the data folder `data` (and `LC_ALL=C`): (exit code, stdout,
/// stderr).
pub fn run_cli(data: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_rummikub-companion"))
        .env("RUMMIKUB_COMPANION_DATA", data)
        .env("LC_ALL", "C")
        .args(args)
        .output()
        .expect("binary runs");
    (
        output.status.code().expect("exit code"),
        String::from_utf8(output.stdout).expect("utf-8"),
        String::from_utf8(output.stderr).expect("utf-8"),
    )
}

/// Runs a `--json` command that must succeed: its JSON object.
pub fn cli_json(data: &std::path::Path, args: &[&str]) -> serde_json::Value {
    let (code, out, err) = run_cli(data, args);
    assert_eq!(code, 0, "{args:?}: {err}");
    serde_json::from_str(&out).expect("one JSON object")
}
