//! `solve`: the best initial meld hidden in an unordered rack. (Owned by the solver issue.)

use std::io::Write;

use clap::Args;

/// `solve` arguments.
#[derive(Debug, Args)]
pub struct SolveArgs {}

pub(super) fn run(_args: &SolveArgs, _out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    super::bad_input(err, "solve is not implemented yet")
}
