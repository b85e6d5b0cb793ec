//! `sound-test` end to end through real ALSA output: the built binary plays into ALSA's `file`
//! plugin (a capture-to-WAV configuration given by `ALSA_CONFIG_PATH`), and the captured audio
//! must hold the three sounds. Also: no device, and a build without audio.
//!
//! ALSA reads its configuration once per process, so every case runs the binary as a child.

use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_rummikub-companion");

fn sound_test(alsa_config: Option<&Path>) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.arg("sound-test").env("LC_ALL", "C"); // English output, whatever the locale
    if let Some(config) = alsa_config {
        cmd.env("ALSA_CONFIG_PATH", config);
    }
    cmd.output().expect("the binary runs")
}

#[cfg(feature = "audio")]
mod audio {
    use std::io::Cursor;
    use std::path::Path;

    use rummikub_companion::sound::Cue;

    use super::sound_test;

    /// Loud enough to count as sound (about -50 dBFS).
    const THRESHOLD: i32 = 100;
    /// Quieter stretches shorter than this do not split a sound (20 ms).
    const MERGE: f64 = 0.020;
    /// Measured lengths may differ by this much (resampling, threshold crossing): 10 ms.
    const TOLERANCE: f64 = 0.010;

    /// The non-silent stretches of a signal, as (start, length) in seconds.
    fn spans(samples: impl Iterator<Item = i32>, rate: u32) -> Vec<(f64, f64)> {
        let rate = f64::from(rate);
        let gap = (MERGE * rate) as usize;
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for (i, s) in samples.enumerate() {
            if s.abs() <= THRESHOLD {
                continue;
            }
            match spans.last_mut() {
                Some((_, end)) if i - *end <= gap => *end = i,
                _ => spans.push((i, i)),
            }
        }
        spans
            .into_iter()
            .map(|(a, b)| (a as f64 / rate, (b - a + 1) as f64 / rate))
            .collect()
    }

    fn spans_of_wav(bytes: &[u8], channel: usize) -> Vec<(f64, f64)> {
        let reader = hound::WavReader::new(Cursor::new(bytes)).expect("a WAV file");
        let spec = reader.spec();
        let channels = usize::from(spec.channels);
        let samples: Vec<i32> = reader
            .into_samples::<i16>()
            .map(|s| i32::from(s.expect("16-bit sample")))
            .collect();
        spans(
            samples.into_iter().skip(channel).step_by(channels),
            spec.sample_rate,
        )
    }

    fn write_config(dir: &Path, default_pcm: &str) -> std::path::PathBuf {
        let config = dir.join("asound.conf");
        let text = format!("</usr/share/alsa/alsa.conf>\npcm.!default {default_pcm}\n");
        std::fs::write(&config, text).expect("config written");
        config
    }

    #[test]
    fn sound_test_plays_the_three_sounds_through_alsa() {
        let dir = tempfile::tempdir().expect("temp dir");
        let wav = dir.path().join("out.wav");
        let config = write_config(
            dir.path(),
            &format!(
                "{{ type plug; slave {{ pcm {{ type file; slave.pcm \"null\"; file \"{}\"; \
                 format \"wav\" }}; format S16_LE; rate 48000; channels 2 }} }}",
                wav.display()
            ),
        );
        let out = sound_test(Some(&config));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.code(),
            Some(0),
            "stdout: {stdout}\nstderr: {stderr}"
        );
        for name in ["warning", "tick", "timeup"] {
            assert!(stdout.contains(&format!("playing {name}")), "{stdout}");
        }
        let captured = std::fs::read(&wav).expect("ALSA wrote the capture file");
        let reader = hound::WavReader::new(Cursor::new(&captured)).expect("a WAV capture");
        assert_eq!(reader.spec().channels, 2);
        assert_eq!(reader.spec().sample_rate, 48_000);
        // The null slave is unpaced: compare the sounds, not the silence between them.
        let expected: Vec<f64> = Cue::ALL
            .iter()
            .flat_map(|c| spans_of_wav(c.wav(), 0))
            .map(|(_, len)| len)
            .collect();
        for channel in 0..2 {
            let got: Vec<f64> = spans_of_wav(&captured, channel)
                .into_iter()
                .map(|(_, len)| len)
                .collect();
            assert_eq!(
                got.len(),
                expected.len(),
                "channel {channel}: spans {got:?}, expected {expected:?}"
            );
            for (g, e) in got.iter().zip(&expected) {
                assert!(
                    (g - e).abs() <= TOLERANCE,
                    "channel {channel}: spans {got:?}, expected {expected:?}"
                );
            }
        }
        // warning (1), tick (1), time-up (3 bursts): in that order, so lengths match as a list.
        assert_eq!(expected.len(), 5);
    }

    #[test]
    fn sound_test_without_an_audio_device_exits_1_with_a_clear_message() {
        let dir = tempfile::tempdir().expect("temp dir");
        let config = write_config(dir.path(), "{ type hw; card 29; device 7 }");
        let out = sound_test(Some(&config));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(
            stderr
                .lines()
                .any(|l| l.starts_with("error: no audio output: ")),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }

    /// A typo in the ALSA configuration makes cpal's `default_host()` panic inside rodio; the
    /// panic is contained and becomes the ordinary "no audio output" error.
    #[test]
    fn sound_test_with_a_malformed_alsa_config_exits_1_without_a_panic() {
        let dir = tempfile::tempdir().expect("temp dir");
        let config = dir.path().join("asound.conf");
        std::fs::write(&config, "pcm.!default {\n  type hw\n  card 0 }}} oops {\n")
            .expect("config written");
        let out = sound_test(Some(&config));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(!stderr.contains("RUST_BACKTRACE"), "{stderr}");
        let last = stderr.lines().last().unwrap_or_default();
        assert!(last.starts_with("error: no audio output: "), "{stderr}");
        assert!(out.stdout.is_empty());
    }

    #[test]
    fn span_measurement_sees_each_sound_as_recorded() {
        let lengths: Vec<usize> = Cue::ALL
            .iter()
            .map(|c| spans_of_wav(c.wav(), 0).len())
            .collect();
        assert_eq!(lengths, [1, 1, 3], "chime, tick, three alarm bursts");
        let timeup = spans_of_wav(Cue::TimeUp.wav(), 0);
        assert!(timeup.windows(2).all(|w| w[1].0 > w[0].0 + w[0].1));
    }
}

#[cfg(not(feature = "audio"))]
#[test]
fn sound_test_without_the_audio_feature_exits_1_and_says_why() {
    let out = sound_test(None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr.trim(),
        "error: no audio output: this build has no audio support (cargo feature `audio` is off)"
    );
}

#[test]
fn sound_test_is_listed_in_the_help() {
    let out = Command::new(BIN).arg("--help").output().expect("runs");
    assert!(String::from_utf8_lossy(&out.stdout).contains("sound-test"));
}
