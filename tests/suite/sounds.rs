//! The embedded sounds: format, length, loudness, clean edges, reproducibility from
//! `examples/make_sounds.rs`, and decoding with rodio exactly as the app does.

use std::io::Cursor;

use rummikub_companion::sound::Cue;

#[allow(dead_code)] // only `render` and `RATE` are used here
#[path = "../../examples/make_sounds.rs"]
mod make_sounds;

/// The lengths promised in `sounds/README.md`, in samples at 48 kHz.
fn expected_samples(cue: Cue) -> usize {
    match cue {
        Cue::Warning => 48_000, // 1.000 s
        Cue::Tick => 4_320,     // 0.090 s
        Cue::TimeUp => 72_000,  // 1.500 s
    }
}

fn samples(cue: Cue) -> (hound::WavSpec, Vec<i16>) {
    let reader = hound::WavReader::new(Cursor::new(cue.wav())).expect("a WAV file");
    let spec = reader.spec();
    let samples = reader
        .into_samples::<i16>()
        .collect::<Result<Vec<_>, _>>()
        .expect("16-bit samples");
    (spec, samples)
}

#[test]
fn each_sound_is_48_khz_mono_16_bit_of_the_promised_length() {
    for cue in Cue::ALL {
        let (spec, samples) = samples(cue);
        assert_eq!(
            (spec.sample_rate, spec.channels, spec.bits_per_sample),
            (48_000, 1, 16),
            "{cue:?}"
        );
        assert_eq!(spec.sample_format, hound::SampleFormat::Int);
        assert_eq!(samples.len(), expected_samples(cue), "{cue:?}");
    }
}

#[test]
fn each_sound_is_clearly_audible_and_starts_and_ends_without_a_click() {
    for cue in Cue::ALL {
        let (_, samples) = samples(cue);
        let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0);
        assert!(peak > 10_000, "{cue:?} peak {peak}");
        assert!(peak < 30_000, "{cue:?} leaves headroom: {peak}");
        let rms = (samples.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>()
            / samples.len() as f64)
            .sqrt();
        assert!(rms > 1_000.0, "{cue:?} rms {rms}");
        // Faded in and out: no jump at either end (the first and last quarter millisecond stay
        // under a quarter of the peak, the very first and last samples at about zero).
        let edge = 12;
        let quiet = |part: &[i16]| part.iter().all(|s| s.unsigned_abs() < peak / 4);
        assert!(quiet(&samples[..edge]), "{cue:?} starts with a click");
        assert!(
            quiet(&samples[samples.len() - edge..]),
            "{cue:?} ends with a click"
        );
        assert!(samples[0].unsigned_abs() < 16, "{cue:?} starts at zero");
        assert!(
            samples[samples.len() - 1].unsigned_abs() < 16,
            "{cue:?} ends at zero"
        );
    }
}

#[test]
fn the_three_sounds_are_distinct() {
    let all: Vec<Vec<i16>> = Cue::ALL.iter().map(|&c| samples(c).1).collect();
    let lengths: Vec<usize> = all.iter().map(Vec::len).collect();
    assert_eq!(lengths.len(), 3);
    assert!(lengths[0] != lengths[1] && lengths[1] != lengths[2] && lengths[0] != lengths[2]);
    // Zero crossings per second tell the pitch apart too: tick and alarm are brighter.
    let crossings = |s: &[i16]| {
        let n = s.windows(2).filter(|w| (w[0] < 0) != (w[1] < 0)).count();
        n as f64 / (s.len() as f64 / 48_000.0)
    };
    let rates: Vec<f64> = all.iter().map(|s| crossings(s)).collect();
    println!("zero crossings per second: {rates:?}");
    for i in 0..3 {
        for j in i + 1..3 {
            let ratio = rates[i].max(rates[j]) / rates[i].min(rates[j]);
            assert!(
                ratio > 1.1,
                "sounds {i} and {j} have the same pitch: {rates:?}"
            );
        }
    }
}

#[test]
fn the_committed_sounds_are_what_the_generator_makes() {
    for cue in Cue::ALL {
        let made = make_sounds::render(cue.name()).expect("a known sound");
        let (_, committed) = samples(cue);
        assert_eq!(made.len(), committed.len(), "{cue:?}");
        // Allow one step of rounding difference from another platform's libm.
        let worst = made
            .iter()
            .zip(&committed)
            .map(|(a, b)| (i32::from(*a) - i32::from(*b)).abs())
            .max();
        assert!(worst <= Some(1), "{cue:?} differs by {worst:?}");
    }
    assert_eq!(make_sounds::RATE, 48_000);
    assert!(make_sounds::render("bell").is_none());
}

#[cfg(feature = "audio")]
#[test]
fn rodio_decodes_each_sound_with_the_expected_duration_and_signal() {
    use rodio::{Decoder, Source};
    for cue in Cue::ALL {
        let decoder = Decoder::new(Cursor::new(cue.wav())).expect("rodio decodes it");
        assert_eq!(decoder.channels().get(), 1);
        assert_eq!(decoder.sample_rate().get(), 48_000);
        let samples: Vec<f32> = decoder.collect();
        assert_eq!(samples.len(), expected_samples(cue), "{cue:?}");
        let peak = samples.iter().fold(0.0f32, |m, s| m.max(s.abs()));
        assert!(peak > 0.3, "{cue:?} decodes to near silence ({peak})");
    }
}

#[cfg(feature = "audio")]
#[test]
fn rodio_reports_the_durations() {
    use rodio::{Decoder, Source};
    let expected = [1_000, 90, 1_500];
    for (cue, ms) in Cue::ALL.into_iter().zip(expected) {
        let decoder = Decoder::new(Cursor::new(cue.wav())).expect("rodio decodes it");
        let duration = decoder.total_duration().expect("a WAV knows its length");
        assert_eq!(duration.as_millis(), ms, "{cue:?}");
    }
}
