//! The timer's sounds, and playing them.
//!
//! The rest of the app only knows the small [`Sounder`] trait: play a [`Cue`], set the volume,
//! mute. That keeps the audio stack out of the engine and the UI, lets tests record what would
//! have sounded ([`RecordingSounder`]), and gives a machine without speakers a working app
//! ([`SilentSounder`]) instead of a crash.
//!
//! The real output ([`RodioSounder`], cargo feature `audio`, on by default) opens the default
//! device once and decodes the three embedded WAV files once, so playing a cue is a cheap,
//! non-blocking hand-over to rodio's mixer thread. Without the feature the crate has no audio
//! stack at all and [`open_default`] says so.
//!
//! # Example
//! ```no_run
//! use rummikub_companion::sound::{open_or_silent, Cue};
//!
//! let (sounder, problem) = open_or_silent();
//! if let Some(problem) = problem {
//!     eprintln!("{problem}"); // shown once; the app goes on with visual alerts only
//! }
//! sounder.set_volume(0.8);
//! sounder.play(Cue::Warning); // never blocks, never panics
//! ```

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
/// The sounds the timer makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cue {
    /// The warning time is reached: a soft two-tone chime.
    Warning,
    /// One of the last seconds: a short wood-block tick.
    Tick,
    /// Time is up: three rising bursts.
    TimeUp,
}

impl Cue {
    /// Every cue, in the order `sound-test` plays them.
    pub const ALL: [Cue; 3] = [Cue::Warning, Cue::Tick, Cue::TimeUp];

    /// The file name stem under `sounds/`.
    pub const fn name(self) -> &'static str {
        match self {
            Cue::Warning => "warning",
            Cue::Tick => "tick",
            Cue::TimeUp => "timeup",
        }
    }

    /// The embedded WAV file (48 kHz, mono, 16-bit).
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::sound::Cue;
    /// assert!(Cue::ALL.iter().all(|c| c.wav().starts_with(b"RIFF")));
    /// ```
    pub const fn wav(self) -> &'static [u8] {
        match self {
            Cue::Warning => include_bytes!("../sounds/warning.wav"),
            Cue::Tick => include_bytes!("../sounds/tick.wav"),
            Cue::TimeUp => include_bytes!("../sounds/timeup.wav"),
        }
    }

    /// How long the cue plays, read from its WAV header (zero for a header it cannot read).
    ///
    /// # Example
    /// ```
    /// use std::time::Duration;
    /// use rummikub_companion::sound::Cue;
    /// assert_eq!(Cue::Warning.duration(), Duration::from_millis(1000));
    /// assert_eq!(Cue::TimeUp.duration(), Duration::from_millis(1500));
    /// ```
    pub fn duration(self) -> std::time::Duration {
        wav_duration(self.wav()).unwrap_or_default()
    }

    /// Which cue wins when several fall on the same instant (higher sounds, lower is dropped).
    pub const fn priority(self) -> u8 {
        match self {
            Cue::Tick => 0,
            Cue::Warning => 1,
            Cue::TimeUp => 2,
        }
    }

    #[cfg(feature = "audio")]
    fn index(self) -> usize {
        match self {
            Cue::Warning => 0,
            Cue::Tick => 1,
            Cue::TimeUp => 2,
        }
    }
}

/// The length of a PCM WAV file: its `data` chunk over its byte rate.
fn wav_duration(wav: &[u8]) -> Option<std::time::Duration> {
    let u32_at = |i: usize| -> Option<u32> {
        let b = wav.get(i..i + 4)?;
        Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    };
    if wav.get(0..4)? != b"RIFF" || wav.get(8..12)? != b"WAVE" {
        return None;
    }
    let mut at = 12;
    let mut byte_rate = None;
    while at + 8 <= wav.len() {
        let id = wav.get(at..at + 4)?;
        let size = usize::try_from(u32_at(at + 4)?).ok()?;
        if id == b"fmt " {
            byte_rate = u32_at(at + 16);
        } else if id == b"data" {
            let rate = u64::from(byte_rate.filter(|&r| r > 0)?);
            let micros = u64::try_from(size).ok()? * 1_000_000 / rate;
            return Some(std::time::Duration::from_micros(micros));
        }
        at += 8 + size + size % 2;
    }
    None
}

/// Something that can sound the timer's cues. Implementations never block in
/// [`play`](Sounder::play) and never panic.
pub trait Sounder: Send + Sync {
    /// Starts playing `cue` (unless muted) and returns at once.
    fn play(&self, cue: Cue);
    /// Sets the volume, 0.0 (silent) to 1.0 (as recorded); other values are clamped.
    fn set_volume(&self, volume: f32);
    /// The volume, 0.0–1.0.
    fn volume(&self) -> f32;
    /// Mutes or unmutes; muting also silences what is playing.
    fn set_muted(&self, muted: bool);
    /// Whether cues are muted.
    fn is_muted(&self) -> bool;
    /// Blocks until every cue started so far has been heard to the end (for `sound-test` and
    /// for quitting right after an alarm). Returns at once when nothing plays.
    fn wait_until_quiet(&self) {}
}

/// Volume and mute, shared by the implementations; safe to change from any thread.
#[derive(Debug)]
struct Level {
    volume_bits: AtomicU32,
    muted: AtomicBool,
}

impl Default for Level {
    fn default() -> Self {
        Level {
            volume_bits: AtomicU32::new(1.0f32.to_bits()),
            muted: AtomicBool::new(false),
        }
    }
}

impl Level {
    fn volume(&self) -> f32 {
        f32::from_bits(self.volume_bits.load(Ordering::Relaxed))
    }

    fn set_volume(&self, volume: f32) {
        let v = if volume.is_nan() {
            0.0
        } else {
            volume.clamp(0.0, 1.0)
        };
        self.volume_bits.store(v.to_bits(), Ordering::Relaxed);
    }

    fn muted(&self) -> bool {
        self.muted.load(Ordering::Relaxed)
    }

    fn set_muted(&self, muted: bool) {
        self.muted.store(muted, Ordering::Relaxed);
    }

    /// Whether a cue played now would be heard.
    fn audible(&self) -> bool {
        !self.muted() && self.volume() > 0.0
    }
}

/// Plays nothing: for machines without audio output and builds without the `audio` feature.
/// Keeps volume and mute so the settings screen still round-trips.
#[derive(Debug, Default)]
pub struct SilentSounder {
    level: Level,
}

impl Sounder for SilentSounder {
    fn play(&self, _cue: Cue) {}
    fn set_volume(&self, volume: f32) {
        self.level.set_volume(volume);
    }
    fn volume(&self) -> f32 {
        self.level.volume()
    }
    fn set_muted(&self, muted: bool) {
        self.level.set_muted(muted);
    }
    fn is_muted(&self) -> bool {
        self.level.muted()
    }
}

/// Remembers the cues that would have been heard (not muted, volume above zero): for tests.
///
/// # Example
/// ```
/// use rummikub_companion::sound::{Cue, RecordingSounder, Sounder};
/// let s = RecordingSounder::default();
/// s.play(Cue::Tick);
/// s.set_muted(true);
/// s.play(Cue::TimeUp);
/// assert_eq!(s.played(), [Cue::Tick]);
/// ```
#[derive(Debug, Default)]
pub struct RecordingSounder {
    level: Level,
    played: Mutex<Vec<Cue>>,
}

impl RecordingSounder {
    /// The audible cues so far, oldest first.
    pub fn played(&self) -> Vec<Cue> {
        self.played
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Sounder for RecordingSounder {
    fn play(&self, cue: Cue) {
        if self.level.audible() {
            self.played
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(cue);
        }
    }
    fn set_volume(&self, volume: f32) {
        self.level.set_volume(volume);
    }
    fn volume(&self) -> f32 {
        self.level.volume()
    }
    fn set_muted(&self, muted: bool) {
        self.level.set_muted(muted);
    }
    fn is_muted(&self) -> bool {
        self.level.muted()
    }
}

/// Why there is no sound.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SoundError {
    /// Built without the `audio` cargo feature.
    #[error("no audio output: this build has no audio support (cargo feature `audio` is off)")]
    NotBuilt,
    /// No output device could be opened.
    #[error("no audio output: {0}")]
    NoOutput(String),
    /// The audio system failed while starting (it panicked; the panic was contained).
    #[error("no audio output: the audio system failed to start ({0})")]
    Failed(String),
    /// An embedded sound could not be decoded (a broken build).
    #[error("the {cue} sound could not be decoded: {reason}")]
    Decode {
        /// The cue's name.
        cue: &'static str,
        /// The decoder's message.
        reason: String,
    },
}

/// Opens the default audio output with every cue decoded, or says why it cannot.
pub fn open_default() -> Result<Arc<dyn Sounder>, SoundError> {
    #[cfg(feature = "audio")]
    {
        Ok(Arc::new(RodioSounder::open_default()?))
    }
    #[cfg(not(feature = "audio"))]
    {
        Err(SoundError::NotBuilt)
    }
}

/// Runs `open` so that a panic inside the audio stack becomes [`SoundError::Failed`] instead of
/// taking the process down. The panic message is not printed (the error carries it): a
/// temporary panic hook stands in while `open` runs.
#[cfg_attr(not(feature = "audio"), allow(dead_code))]
fn contain_panic<T>(open: impl FnOnce() -> Result<T, SoundError>) -> Result<T, SoundError> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(open));
    std::panic::set_hook(previous);
    result.unwrap_or_else(|payload| {
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown failure".to_owned());
        Err(SoundError::Failed(text))
    })
}

/// [`open_default`], falling back to a [`SilentSounder`]; the error, if any, is for the app to
/// show once.
pub fn open_or_silent() -> (Arc<dyn Sounder>, Option<SoundError>) {
    match open_default() {
        Ok(sounder) => (sounder, None),
        Err(e) => (Arc::new(SilentSounder::default()), Some(e)),
    }
}

#[cfg(feature = "audio")]
pub use real::RodioSounder;

#[cfg(feature = "audio")]
mod real {
    use std::io::Cursor;
    use std::sync::Mutex;
    use std::time::Duration;

    use rodio::buffer::SamplesBuffer;
    use rodio::source::Zero;
    use rodio::{Decoder, DeviceSinkBuilder, MixerDeviceSink, Player, Source};

    use super::{Cue, Level, SoundError, Sounder, contain_panic};

    /// Extra silence played before [`Sounder::wait_until_quiet`] returns, so the device's
    /// buffer (rodio asks for about 50 ms) has played out before anything is closed.
    const DRAIN: Duration = Duration::from_millis(250);

    /// Real playback through rodio on the default output device.
    pub struct RodioSounder {
        sink: MixerDeviceSink,
        cues: [SamplesBuffer; 3],
        playing: Mutex<Vec<Player>>,
        level: Level,
    }

    impl std::fmt::Debug for RodioSounder {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.debug_struct("RodioSounder")
                .field("sink", &self.sink)
                .field("level", &self.level)
                .finish_non_exhaustive()
        }
    }

    impl RodioSounder {
        /// Opens the default output device once and decodes every cue once.
        pub fn open_default() -> Result<RodioSounder, SoundError> {
            let cues = [
                decode(Cue::Warning)?,
                decode(Cue::Tick)?,
                decode(Cue::TimeUp)?,
            ];
            let mut sink = open_sink()?;
            sink.log_on_drop(false);
            Ok(RodioSounder {
                sink,
                cues,
                playing: Mutex::new(Vec::new()),
                level: Level::default(),
            })
        }

        /// How long `cue` plays.
        pub fn duration(&self, cue: Cue) -> Duration {
            self.cues[cue.index()].total_duration().unwrap_or_default()
        }

        fn playing(&self) -> std::sync::MutexGuard<'_, Vec<Player>> {
            self.playing.lock().unwrap_or_else(|e| e.into_inner())
        }

        fn start(&self, source: impl Source + Send + 'static) {
            let player = Player::connect_new(self.sink.mixer());
            player.set_volume(self.level.volume());
            player.append(source);
            let mut playing = self.playing();
            playing.retain(|p| !p.empty());
            playing.push(player);
        }
    }

    impl Sounder for RodioSounder {
        fn play(&self, cue: Cue) {
            if self.level.audible() {
                self.start(self.cues[cue.index()].clone());
            }
        }

        fn set_volume(&self, volume: f32) {
            self.level.set_volume(volume);
            let v = self.level.volume();
            self.playing().iter().for_each(|p| p.set_volume(v));
        }

        fn volume(&self) -> f32 {
            self.level.volume()
        }

        fn set_muted(&self, muted: bool) {
            self.level.set_muted(muted);
            if muted {
                self.playing().drain(..).for_each(|p| p.stop());
            }
        }

        fn is_muted(&self) -> bool {
            self.level.muted()
        }

        fn wait_until_quiet(&self) {
            let players: Vec<Player> = self.playing().drain(..).collect();
            if players.is_empty() {
                return;
            }
            players.iter().for_each(Player::sleep_until_end);
            let config = self.sink.config();
            let drain =
                Zero::new(config.channel_count(), config.sample_rate()).take_duration(DRAIN);
            let player = Player::connect_new(self.sink.mixer());
            player.append(drain);
            player.sleep_until_end();
        }
    }

    /// Opens the default output without letting the audio stack take the process down.
    ///
    /// cpal's `default_host()` (called inside rodio) panics when the host cannot start, e.g.
    /// with a typo in `~/.asoundrc`. So the host is first opened with the fallible
    /// `host_from_id`, and the whole opening runs under `catch_unwind` (with the panic message
    /// silenced): whatever goes wrong becomes [`SoundError`], the normal "no audio" path.
    fn open_sink() -> Result<MixerDeviceSink, SoundError> {
        contain_panic(|| {
            let mut first_error = None;
            let any_host =
                rodio::cpal::available_hosts().into_iter().any(
                    |id| match rodio::cpal::host_from_id(id) {
                        Ok(_) => true,
                        Err(e) => {
                            first_error.get_or_insert_with(|| with_sources(&e));
                            false
                        }
                    },
                );
            if !any_host {
                return Err(SoundError::NoOutput(
                    first_error.unwrap_or_else(|| "no audio system on this machine".to_owned()),
                ));
            }
            DeviceSinkBuilder::open_default_sink()
                .map_err(|e| SoundError::NoOutput(with_sources(&e)))
        })
    }

    fn decode(cue: Cue) -> Result<SamplesBuffer, SoundError> {
        let decoder = Decoder::new(Cursor::new(cue.wav())).map_err(|e| SoundError::Decode {
            cue: cue.name(),
            reason: e.to_string(),
        })?;
        let (channels, rate) = (decoder.channels(), decoder.sample_rate());
        Ok(SamplesBuffer::new(
            channels,
            rate,
            decoder.collect::<Vec<_>>(),
        ))
    }

    /// An error's message followed by its causes ("could not open: no such card").
    fn with_sources(e: &dyn std::error::Error) -> String {
        let mut text = e.to_string();
        let mut source = e.source();
        while let Some(cause) = source {
            text.push_str(": ");
            text.push_str(&cause.to_string());
            source = cause.source();
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_while_opening_becomes_a_typed_error() {
        let got: Result<(), SoundError> = contain_panic(|| panic!("the default host is gone"));
        assert_eq!(
            got,
            Err(SoundError::Failed("the default host is gone".into()))
        );
        assert_eq!(
            SoundError::Failed("x".into()).to_string(),
            "no audio output: the audio system failed to start (x)"
        );
        // The usual hook is back afterwards: a later error path is untouched.
        let ok: Result<u8, SoundError> = contain_panic(|| Ok(7));
        assert_eq!(ok, Ok(7));
    }
}
