//! The `check` command as a process: output, JSON shape, exit codes, messages on stderr.

use std::process::{Command, Output};

fn check(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rummikub-companion"))
        .env("LC_ALL", "C") // English output, whatever the machine's locale
        .arg("check")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn done_when_r11_j_r13_is_valid_36_with_joker_r12() {
    let out = check(&["R11 J R13"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("joker = R12"), "{stdout}");
    assert!(stdout.contains("36 points"), "{stdout}");
    assert!(stdout.contains("valid initial meld"), "{stdout}");
    assert!(out.stderr.is_empty());
}

#[test]
fn json_shape() {
    let out = check(&["--json", "R11", "J", "R13", "|", "R7 R7 B7"]);
    assert_eq!(out.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert_eq!(v["valid"], false);
    assert_eq!(v["total"], 36);
    assert_eq!(v["threshold"], 30);
    let sets = v["sets"].as_array().expect("sets array");
    assert_eq!(sets.len(), 2);
    assert_eq!(sets[0]["tiles"], serde_json::json!(["R11", "J", "R13"]));
    assert_eq!(sets[0]["kind"], "run");
    assert_eq!(sets[0]["points"], 36);
    assert_eq!(sets[0]["ok"], true);
    assert_eq!(sets[0]["problem"], serde_json::Value::Null);
    assert_eq!(
        sets[0]["represented"],
        serde_json::json!(["R11", "R12", "R13"])
    );
    assert_eq!(sets[1]["ok"], false);
    assert_eq!(sets[1]["kind"], serde_json::Value::Null);
    assert_eq!(sets[1]["points"], serde_json::Value::Null);
    assert_eq!(sets[1]["problem"], "group has two red tiles (R7, R7)");
    assert_eq!(
        v["problems"],
        serde_json::json!(["set 2: group has two red tiles (R7, R7)"])
    );
}

#[test]
fn options_change_the_verdict() {
    assert_eq!(check(&["R10 R11 R12"]).status.code(), Some(0));
    assert_eq!(
        check(&["--threshold", "40", "R10 R11 R12"]).status.code(),
        Some(1)
    );
    assert_eq!(
        check(&["--no-joker-meld", "R11 J R13"]).status.code(),
        Some(1)
    );
    assert_eq!(
        check(&["R5 J J | B1 J B3 | K13 K12 K11"]).status.code(),
        Some(1)
    );
    assert_eq!(
        check(&["--xp", "R5 J J | B1 J B3 | K13 K12 K11"])
            .status
            .code(),
        Some(0)
    );
    let out = check(&["--json", "--preset", "tournament", "R10 R11 R12"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["threshold"], 30);
}

#[test]
fn korean_input_and_ambiguity_note() {
    let out = check(&["빨강5 조커 조커 | 파10 파11 파12"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("read as run R5 R6 R7 = 18; as a group it would be 15"),
        "{stdout}"
    );
}

#[test]
fn bad_input_exits_2_and_names_the_token() {
    for (args, needle) in [
        (vec!["R1 R2 R14"], "\"R14\""),
        (vec!["R1 R2 G3"], "unknown colour \"G\""),
        (vec!["R1 R2 R3 |"], "empty set"),
        (vec!["maybe: R1 R2 R3"], "unknown declaration \"maybe:\""),
        (vec![""], "no tiles entered"),
        (vec!["--preset", "casual", "R1 R2 R3"], "casual"),
        (vec!["--threshold", "x", "R1 R2 R3"], "x"),
    ] {
        let out = check(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    // No meld at all is a usage error.
    assert_eq!(check(&[]).status.code(), Some(2));
}
