//! `rummikub-companion`: the window with no arguments, a CLI subcommand otherwise.

fn main() {
    if std::env::args_os().len() > 1 {
        std::process::exit(rummikub_companion::cli::main(std::env::args_os()));
    }
    if let Err(e) = rummikub_companion::ui::run() {
        // Worded for the user (no display, in the locale's language), not eframe's own text.
        std::process::exit(rummikub_companion::cli::window_failed(&e));
    }
}
