//! `sound-test`: plays the warning, tick and time-up sounds on the default output, one after
//! the other, so a table can check its speakers before a game.

use std::io::Write;

use super::EXIT_NO;
#[cfg(feature = "audio")]
use super::EXIT_YES;
#[cfg(feature = "audio")]
use crate::sound::{Cue, RodioSounder, Sounder};

#[cfg(feature = "audio")]
pub(super) fn run(out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let sounder = match RodioSounder::open_default() {
        Ok(sounder) => sounder,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return EXIT_NO;
        }
    };
    for cue in Cue::ALL {
        let seconds = sounder.duration(cue).as_secs_f64();
        let _ = writeln!(out, "playing {} ({seconds:.2} s)", cue.name());
        let _ = out.flush();
        sounder.play(cue);
        sounder.wait_until_quiet();
    }
    let _ = writeln!(out, "done: played {} sounds", Cue::ALL.len());
    EXIT_YES
}

#[cfg(not(feature = "audio"))]
pub(super) fn run(_out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let _ = writeln!(err, "error: {}", crate::sound::SoundError::NotBuilt);
    EXIT_NO
}
