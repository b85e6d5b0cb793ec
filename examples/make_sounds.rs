//! Makes the timer's sounds: `cargo run --example make_sounds [DIR]` writes `warning.wav`,
//! `tick.wav` and `timeup.wav` (48 kHz, mono, 16-bit) into DIR (default `sounds/`).
//!
//! Pure arithmetic, no randomness: the same program always writes the same samples, so the
//! committed files can be checked against it (`tests/suite/sounds.rs` does).
//!
//! Every sound is a sum of decaying sine partials shaped by raised-cosine fades, so it starts
//! and ends at exactly zero (no clicks) and has no hard edges inside.

use std::f64::consts::PI;
use std::path::{Path, PathBuf};

/// Sample rate of every sound.
pub const RATE: u32 = 48_000;

/// One sine partial: frequency (Hz), amplitude, decay time constant (s).
struct Partial(f64, f64, f64);

/// A struck or sustained note.
struct Note {
    /// Start within the sound (s).
    start: f64,
    /// Length (s); the note fades out over `release` at its end.
    length: f64,
    attack: f64,
    release: f64,
    partials: &'static [Partial],
    /// Frequency multiplier, to transpose a partial set.
    pitch: f64,
}

/// Warning: a two-tone chime (G5 then C6), soft mallet partials ringing out.
const CHIME: &[Partial] = &[
    Partial(1.0, 1.0, 0.35),
    Partial(2.0, 0.22, 0.18),
    Partial(3.0, 0.06, 0.10),
];
/// Tick: a wood block, a short knock with an inharmonic overtone.
const WOOD: &[Partial] = &[Partial(1.0, 1.0, 0.018), Partial(2.72, 0.35, 0.008)];
/// Time-up: an organ-like tone with a few harmonics, sustained through each burst.
const ALARM: &[Partial] = &[
    Partial(1.0, 1.0, 1.2),
    Partial(2.0, 0.35, 0.9),
    Partial(3.0, 0.18, 0.6),
    Partial(4.0, 0.08, 0.4),
];

/// The three sounds: name, total length (s), peak level (0–1), notes.
fn recipe(name: &str) -> Option<(f64, f64, Vec<Note>)> {
    let note = |start, length, attack, release, partials, pitch| Note {
        start,
        length,
        attack,
        release,
        partials,
        pitch,
    };
    match name {
        "warning" => Some((
            1.0,
            0.45,
            vec![
                note(0.0, 1.0, 0.006, 0.08, CHIME, 783.99),
                note(0.22, 0.78, 0.006, 0.08, CHIME, 1046.50),
            ],
        )),
        "tick" => Some((
            0.09,
            0.35,
            vec![note(0.0, 0.09, 0.0015, 0.03, WOOD, 1250.0)],
        )),
        "timeup" => Some((
            1.5,
            0.6,
            vec![
                note(0.0, 0.4, 0.012, 0.05, ALARM, 739.99),
                note(0.5, 0.4, 0.012, 0.05, ALARM, 880.0),
                note(1.0, 0.5, 0.012, 0.08, ALARM, 1108.73),
            ],
        )),
        _ => None,
    }
}

/// The sound names, in `sound-test` order.
pub const NAMES: [&str; 3] = ["warning", "tick", "timeup"];

/// 0 → 1 along half a cosine, for `x` in 0..=1.
fn raised_cosine(x: f64) -> f64 {
    0.5 - 0.5 * (PI * x.clamp(0.0, 1.0)).cos()
}

/// The note's value at `t` seconds into the sound.
fn note_at(n: &Note, t: f64) -> f64 {
    let local = t - n.start;
    if local < 0.0 || local >= n.length {
        return 0.0;
    }
    let fade_in = raised_cosine(local / n.attack);
    let fade_out = raised_cosine((n.length - local) / n.release);
    let tone: f64 = n
        .partials
        .iter()
        .map(|Partial(ratio, amp, tau)| {
            amp * (-local / tau).exp() * (2.0 * PI * ratio * n.pitch * local).sin()
        })
        .sum();
    tone * fade_in * fade_out
}

/// The samples of sound `name`, peak-normalised, or `None` for an unknown name.
pub fn render(name: &str) -> Option<Vec<i16>> {
    let (length, peak, notes) = recipe(name)?;
    let count = (length * f64::from(RATE)).round() as usize;
    let raw: Vec<f64> = (0..count)
        .map(|i| {
            let t = i as f64 / f64::from(RATE);
            notes.iter().map(|n| note_at(n, t)).sum()
        })
        .collect();
    let max = raw.iter().fold(0.0f64, |m, x| m.max(x.abs())).max(1e-9);
    let scale = peak * f64::from(i16::MAX) / max;
    Some(raw.iter().map(|x| (x * scale).round() as i16).collect())
}

/// Writes sound `name` as `DIR/name.wav`.
fn write(dir: &Path, name: &str) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let samples = render(name).ok_or_else(|| format!("unknown sound {name}"))?;
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let path = dir.join(format!("{name}.wav"));
    let mut writer = hound::WavWriter::create(&path, spec)?;
    for s in samples {
        writer.write_sample(s)?;
    }
    writer.finalize()?;
    Ok(path)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("sounds"), PathBuf::from);
    std::fs::create_dir_all(&dir)?;
    for name in NAMES {
        let path = write(&dir, name)?;
        let seconds = render(name).map_or(0, |s| s.len()) as f64 / f64::from(RATE);
        println!("{} ({seconds:.3} s)", path.display());
    }
    Ok(())
}
