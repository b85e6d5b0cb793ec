//! `sound-test`: plays the three timer sounds. (Owned by the timer/sound issue.)

use std::io::Write;

pub(super) fn run(_out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let _ = writeln!(err, "error: sound-test is not implemented yet");
    super::EXIT_NO
}
