//! `sound-test`: plays the warning, tick and time-up sounds on the default output, one after
//! the other, so a table can check its speakers before a game.

use std::io::Write;

use super::EXIT_NO;
#[cfg(feature = "audio")]
use super::EXIT_YES;
use crate::i18n;
use crate::i18n::cli::ERROR;
#[cfg(feature = "audio")]
use crate::i18n::cli::sound as words;
use crate::lang::Language;
#[cfg(feature = "audio")]
use crate::sound::{Cue, RodioSounder, Sounder};

#[cfg(feature = "audio")]
pub(super) fn run(lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let sounder = match RodioSounder::open_default() {
        Ok(sounder) => sounder,
        Err(e) => {
            // The message only, in the user's language: the audio library's own words are
            // English and name its internals.
            let _ = writeln!(err, "{} {}", ERROR.get(lang), i18n::sound_error(lang, &e));
            return EXIT_NO;
        }
    };
    for cue in Cue::ALL {
        let seconds = sounder.duration(cue).as_secs_f64();
        let _ = writeln!(out, "{}", words::playing(lang, cue, seconds));
        let _ = out.flush();
        sounder.play(cue);
        sounder.wait_until_quiet();
    }
    let _ = writeln!(out, "{}", words::done(lang, Cue::ALL.len()));
    EXIT_YES
}

#[cfg(not(feature = "audio"))]
pub(super) fn run(lang: Language, _out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let e = crate::sound::SoundError::NotBuilt;
    let _ = writeln!(err, "{} {}", ERROR.get(lang), i18n::sound_error(lang, &e));
    EXIT_NO
}
