//! `score` and `audit`: score sheets from CSV. (Owned by the score-sheet issue.)

use std::io::Write;

use clap::Args;

/// `score` arguments.
#[derive(Debug, Args)]
pub struct ScoreArgs {}

/// `audit` arguments.
#[derive(Debug, Args)]
pub struct AuditArgs {}

pub(super) fn run_score(_args: &ScoreArgs, _out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    super::bad_input(err, "score is not implemented yet")
}

pub(super) fn run_audit(_args: &AuditArgs, _out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    super::bad_input(err, "audit is not implemented yet")
}
