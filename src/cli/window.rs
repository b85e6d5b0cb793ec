//! When the window cannot open: a message for the person at the keyboard, in the locale's
//! language, instead of the graphics stack's own error.
//!
//! With no display (an SSH session, a server, a container) winit's error names the source file
//! of the build machine (`os error at /root/.cargo/registry/…/mod.rs:765: …`), which says
//! nothing to a user and is in English. That case gets its own sentence saying what to do;
//! any other failure is reported with the graphics system's words, source paths removed.

use std::io::Write;

use super::{EXIT_NO, Terminal};
use crate::i18n::cli::{ERROR, window};
use crate::lang::Language;

/// Reports that the window could not be opened (`error` is eframe's) on stderr, in the
/// locale's language, and returns the exit code.
pub fn window_failed(error: &dyn std::fmt::Display) -> i32 {
    let stderr = std::io::stderr();
    let mut lock = stderr.lock();
    let mut err = Terminal::new(&mut lock);
    let message = window_message(Language::of_system(), &error.to_string(), no_display());
    let _ = writeln!(err, "{message}");
    EXIT_NO
}

/// The message for a window that failed with `detail`; `no_display` when no display is set.
///
/// # Example
/// ```
/// use rummikub_companion::cli::window_message;
/// use rummikub_companion::lang::Language;
/// let detail = "winit EventLoopError: os error at /root/.cargo/registry/src/winit-0.30.13/\
///               src/platform_impl/linux/mod.rs:765: neither WAYLAND_DISPLAY nor DISPLAY is set.";
/// let text = window_message(Language::English, detail, false);
/// assert!(text.starts_with("error: no display found"), "{text}");
/// assert!(!text.contains(".rs"), "{text}");
/// ```
pub fn window_message(lang: Language, detail: &str, no_display: bool) -> String {
    let error = ERROR.get(lang);
    if no_display || detail.contains("DISPLAY") {
        return format!("{error} {}", window::NO_DISPLAY.get(lang));
    }
    format!(
        "{error} {}",
        window::cannot_open(lang, &without_source_paths(detail))
    )
}

/// Whether no display is set where one is needed (X11 or Wayland: not on Windows or macOS).
fn no_display() -> bool {
    cfg!(all(unix, not(target_os = "macos")))
        && ["DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"]
            .iter()
            .all(|var| std::env::var_os(var).is_none_or(|v| v.is_empty()))
}

/// `detail` without source locations (`at /…/src/x.rs:12:`): words of the build machine.
fn without_source_paths(detail: &str) -> String {
    let mut kept: Vec<&str> = Vec::new();
    for word in detail.split(' ') {
        let bare = word.trim_end_matches([':', ',', ')']);
        let source = bare.contains(".rs") && (bare.contains('/') || bare.contains('\\'));
        if source {
            if kept.last() == Some(&"at") {
                kept.pop();
            }
            continue;
        }
        kept.push(word);
    }
    kept.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_paths_are_left_out() {
        assert_eq!(
            without_source_paths("os error at /home/b/src/lib.rs:3:4: device lost"),
            "os error device lost"
        );
        assert_eq!(without_source_paths("no GL context"), "no GL context");
    }

    #[test]
    fn no_display_is_worded_in_both_languages() {
        let ko = window_message(Language::Korean, "x", true);
        assert_eq!(ko, format!("{} {}", ERROR.ko, window::NO_DISPLAY.ko));
        let en = window_message(Language::English, "x", true);
        assert!(en.contains("set DISPLAY or WAYLAND_DISPLAY"), "{en}");
    }
}
