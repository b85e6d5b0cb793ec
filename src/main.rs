//! `rummikub-companion`: the window with no arguments, a CLI subcommand otherwise.

fn main() {
    if std::env::args_os().len() > 1 {
        std::process::exit(rummikub_companion::cli::main(std::env::args_os()));
    }
    if let Err(e) = rummikub_companion::ui::run() {
        eprintln!("error: could not open the window: {e}");
        std::process::exit(1);
    }
}
