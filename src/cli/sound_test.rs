//! `sound-test`: plays the warning, tick and time-up sounds on the default output, one after
//! the other, so a table can check its speakers before a game.

use std::io::Write;

#[cfg(feature = "audio")]
use super::EXIT_YES;
use super::{EXIT_NO, error_prefix};
use crate::i18n::{self, Language};
#[cfg(feature = "audio")]
use crate::sound::{Cue, RodioSounder, Sounder};

#[cfg(feature = "audio")]
pub(super) fn run(lang: Language, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let ko = super::korean(lang);
    let sounder = match RodioSounder::open_default() {
        Ok(sounder) => sounder,
        Err(e) => {
            let _ = writeln!(
                err,
                "{} {}",
                error_prefix(lang),
                i18n::sound_error(lang, &e)
            );
            if ko {
                // The audio system's own words, for whoever fixes the speakers.
                let _ = writeln!(err, "  ({e})");
            }
            return EXIT_NO;
        }
    };
    for cue in Cue::ALL {
        let seconds = sounder.duration(cue).as_secs_f64();
        if ko {
            let name = match cue {
                Cue::Warning => "경고음",
                Cue::Tick => "째깍 소리",
                Cue::TimeUp => "시간 끝 소리",
            };
            let _ = writeln!(out, "{name} 재생 ({seconds:.2}초)");
        } else {
            let _ = writeln!(out, "playing {} ({seconds:.2} s)", cue.name());
        }
        let _ = out.flush();
        sounder.play(cue);
        sounder.wait_until_quiet();
    }
    if ko {
        let _ = writeln!(out, "끝: 소리 {}개를 재생했습니다", Cue::ALL.len());
    } else {
        let _ = writeln!(out, "done: played {} sounds", Cue::ALL.len());
    }
    EXIT_YES
}

#[cfg(not(feature = "audio"))]
pub(super) fn run(lang: Language, _out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let e = crate::sound::SoundError::NotBuilt;
    let _ = writeln!(
        err,
        "{} {}",
        error_prefix(lang),
        i18n::sound_error(lang, &e)
    );
    EXIT_NO
}
