//! The engine stays pure (DESIGN.md, "Engine purity"): `tile`, `rules`, `meld`, `solver`, `play`, `referee`,
//! `score`, `timer`, `history` and the club night's `event` name no GUI, audio, file, network,
//! process or thread code and read no clock. Read from the sources, so a new `use` that breaks
//! the promise fails here, not in review.

use std::path::{Path, PathBuf};

/// The engine's modules: a file each, and its folder of submodules where it has one.
const ENGINE: &[&str] = &[
    "tile",
    "rules",
    "meld",
    "solver",
    "play",
    "referee",
    "score",
    "timer",
    "history",
    "event",
    // What the table says (the laptop's speaker around them, `speech.rs`, is an adapter).
    "speech/phrases",
    "speech/respell",
];

/// What an engine module may not name.
const FORBIDDEN: &[&str] = &[
    "egui",
    "eframe",
    "rodio",
    "cpal",
    "std::fs",
    "std::net",
    "std::process",
    "std::thread",
    "tokio",
    "axum",
    "hyper",
    "directories",
    "Instant::now",
    "SystemTime",
    "Utc::now",
    "Local::now",
    "crate::store",
    "crate::ui",
    "crate::server",
    "crate::sound",
    "crate::runtime",
    "crate::evening",
];

fn sources(module: &str) -> Vec<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![src.join(format!("{module}.rs"))];
    let mut folders = vec![src.join(module)];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files
}

/// The code of a line: doc and line comments are prose, not imports.
fn code(line: &str) -> &str {
    let line = line.trim_start();
    if line.starts_with("//") {
        return "";
    }
    line.split("//").next().unwrap_or("")
}

#[test]
fn the_engine_names_no_gui_audio_file_network_or_clock() {
    let mut checked = 0;
    let mut found = Vec::new();
    for module in ENGINE {
        for file in sources(module) {
            let text = std::fs::read_to_string(&file).expect("an engine source file");
            checked += 1;
            for (n, line) in text.lines().enumerate() {
                for word in FORBIDDEN {
                    if code(line).contains(word) {
                        found.push(format!("{}:{}: {word}", file.display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(checked >= ENGINE.len(), "every engine module was read");
    assert!(
        found.is_empty(),
        "the engine must stay pure:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_check_sees_a_forbidden_line() {
    // The scan itself: a line that names the file system is caught, a comment is not.
    let caught = |line: &str| FORBIDDEN.iter().any(|w| code(line).contains(w));
    assert!(caught("use std::fs::File;"));
    assert!(caught("    let now = Instant::now();"));
    assert!(!caught("/// Reads no clock: never `Instant::now()`."));
    assert!(!caught("let x = 1; // not std::fs"));
}
