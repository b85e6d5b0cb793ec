//! `rummikub-companion`: parses arguments and hands over to the library.

fn main() {
    std::process::exit(rummikub_companion::cli::main(std::env::args_os()));
}
