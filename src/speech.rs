//! The laptop speaks: whose turn it is, the warning, time-up, and the results, through the
//! platform's speech engine run as a separate program.
//!
//! What is said is decided by the pure [`phrases`] (and, for espeak-ng's Korean, [`respell`]);
//! this module only says it. Engines, in order of preference, found on `PATH`:
//! - `spd-say` (speech-dispatcher, the Linux desktop's speech service), with `-w` so the
//!   program lives while it speaks; cut off by killing it and `spd-say -C`;
//! - `espeak-ng`, given the respelled Korean (voice `ko` or `en`); cut off by killing it;
//! - on macOS, `say`; on Windows, the system voice (SAPI) through `powershell -EncodedCommand`
//!   (untested here: no Windows machine; the script it is given is unit-tested).
//!
//! espeak-ng is GPL: it is only ever run as a program, never linked.
//!
//! Why a thread of its own ([`ProcessSpeaker`]): starting a program and waiting for its words
//! must never hold the window, the timer's thread or a phone's request. [`Speaker::say`]
//! hands an [`Utterance`] over a channel and returns; the thread waits out the alarm that
//! comes with it (the cue first, then the words), starts the engine, and watches it. A new turn
//! ([`Happening::cuts_off`]) drops what waits and cuts off what is being said. An engine that
//! fails gives way to the next one found on `PATH` (which says the same words); the last one
//! failing is reported ([`Speaker::take_problems`]) for one notice; nothing else changes.
//!
//! Why every engine call has a time limit: a wedged speech service (a `spd-say` that never
//! returns) would otherwise hold the speaking thread for the rest of the evening, and every
//! turn after it would go unsaid with nobody told. So `spd-say -C` may take
//! [`CANCEL_LIMIT`], and saying an utterance [`speak_limit`]; an engine past its limit is
//! killed, counts as failed (the next engine takes over and says the words) and is reported
//! once ([`Trouble::Hung`]).
//!
//! Why an utterance comes in runs of one language ([`Words`]): a name is said with the voice
//! of its script ([`phrases::phrase_runs`]). espeak-ng switches voices inside one sentence
//! (SSML, `-m`); the other engines say the runs one after another.
//!
//! [`Voice`] is what the evening and the timer's thread hold: the speaker and what to say with
//! it (the table's language, the voice settings, the seats' spoken names).
//!
//! # Example
//! ```
//! use std::time::Duration;
//! use std::sync::Arc;
//! use rummikub_companion::lang::Language;
//! use rummikub_companion::speech::{RecordingSpeaker, Voice, VoiceConfig};
//! use rummikub_companion::speech::phrases::Happening;
//!
//! let speaker = Arc::new(RecordingSpeaker::default());
//! let voice = Voice::new(speaker.clone());
//! voice.configure(VoiceConfig { lang: Language::Korean, ..VoiceConfig::default() });
//! voice.announce(&Happening::Turn { name: "루미".into() }, Duration::ZERO);
//! assert_eq!(speaker.texts(), ["루미 차례임니다"]);
//! ```

pub mod phrases;
pub mod respell;

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::lang::Language;
use phrases::{Happening, VoiceSettings};

/// How often the speaking thread looks at a running engine.
const POLL: Duration = Duration::from_millis(15);

/// At most this many utterances wait behind the one being said (older ones are dropped).
const QUEUE: usize = 8;

/// How long `spd-say -C` (cancel what the service says) may take before it is killed and the
/// engine counts as failed.
pub const CANCEL_LIMIT: Duration = Duration::from_secs(2);

/// How long an engine may take to say `text`: 8 s, and 150 ms a character beyond (a turn's
/// words take one or two seconds; a match shared by six takes six).
pub fn speak_limit(text: &str) -> Duration {
    Duration::from_secs(8) + Duration::from_millis(150) * text.chars().count() as u32
}

/// A run of words in one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    /// The words, as the engine is given them (Korean already respelled where it helps).
    pub text: String,
    /// Their language.
    pub lang: Language,
}

/// Something to say.
#[derive(Clone, Debug, PartialEq)]
pub struct Utterance {
    /// The words, as the engine is given them (Korean already respelled where it helps).
    pub text: String,
    /// The sentence's language (the table's).
    pub lang: Language,
    /// The words in runs of one language (a name in another script is a run of its own);
    /// their texts together are `text`. Empty: all of `text` in `lang`.
    pub runs: Vec<Words>,
    /// Volume, 0–1 (1 = the engine's normal level).
    pub volume: f32,
    /// Wait this long before speaking (the alarm's length: the cue first, then the words).
    pub after: Duration,
    /// Drop what waits and cut off what is being said.
    pub cuts_off: bool,
}

impl Utterance {
    /// `text` in `lang` alone (one run), said at once.
    pub fn plain(text: impl Into<String>, lang: Language, volume: f32) -> Utterance {
        Utterance {
            text: text.into(),
            lang,
            runs: Vec::new(),
            volume,
            after: Duration::ZERO,
            cuts_off: false,
        }
    }

    /// Whether every word is in the sentence's language.
    pub fn one_language(&self) -> bool {
        self.runs.iter().all(|r| r.lang == self.lang)
    }

    /// The runs as utterances of one language each (for an engine that cannot switch voices
    /// within one call).
    fn split(&self) -> Vec<Utterance> {
        if self.one_language() {
            return vec![self.clone()];
        }
        self.runs
            .iter()
            .filter(|r| !r.text.trim().is_empty())
            .map(|r| Utterance {
                text: r.text.trim().to_owned(),
                lang: r.lang,
                runs: Vec::new(),
                ..self.clone()
            })
            .collect()
    }
}

/// Text for an SSML document (`&`, `<`, `>` escaped).
fn xml_text(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The speech engines the laptop can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Engine {
    /// speech-dispatcher's `spd-say`.
    SpdSay,
    /// `espeak-ng`.
    EspeakNg,
    /// macOS's `say`.
    Say,
    /// Windows' own voice (SAPI) through PowerShell's `System.Speech`, run as a program.
    WindowsVoice,
    /// A recorder, for tests.
    Recorder,
}

impl Engine {
    /// The program's name.
    pub const fn program(self) -> &'static str {
        match self {
            Engine::SpdSay => "spd-say",
            Engine::EspeakNg => "espeak-ng",
            Engine::Say => "say",
            Engine::WindowsVoice => "powershell",
            Engine::Recorder => "(recorder)",
        }
    }

    /// The engines looked for on this platform, best first.
    pub fn candidates() -> &'static [Engine] {
        if cfg!(target_os = "macos") {
            &[Engine::Say, Engine::SpdSay, Engine::EspeakNg]
        } else if cfg!(windows) {
            &[Engine::WindowsVoice, Engine::EspeakNg]
        } else {
            &[Engine::SpdSay, Engine::EspeakNg]
        }
    }

    /// Whether the words should be respelled for it (espeak-ng, and speech-dispatcher, whose
    /// usual Korean voice is espeak-ng's; a faithful respelling reads the same on any voice).
    fn respells(self) -> bool {
        !matches!(self, Engine::Say | Engine::WindowsVoice)
    }

    /// Whether one call can say words of both languages, each with its own voice (espeak-ng,
    /// through SSML); the others are given one run at a time.
    pub fn switches_voices(self) -> bool {
        matches!(self, Engine::EspeakNg | Engine::Recorder)
    }

    /// The arguments that say `u` in one call: for an engine that does not
    /// [switch voices](Engine::switches_voices), `u` is of one language (the speaking thread
    /// splits it first); espeak-ng is given runs of another language as SSML voices
    /// (`-m`, `<voice xml:lang="ko">루미</voice>'s turn`).
    pub fn args(self, u: &Utterance) -> Vec<OsString> {
        if self == Engine::EspeakNg && !u.one_language() {
            let volume = if u.volume.is_nan() {
                0.0
            } else {
                u.volume.clamp(0.0, 1.0)
            };
            let body: String = u
                .runs
                .iter()
                .map(|r| {
                    if r.lang == u.lang {
                        xml_text(&r.text)
                    } else {
                        format!(
                            "<voice xml:lang=\"{}\">{}</voice>",
                            code(r.lang),
                            xml_text(&r.text)
                        )
                    }
                })
                .collect();
            return [
                "-m".to_owned(),
                "-v".to_owned(),
                code(u.lang).to_owned(),
                "-a".to_owned(),
                format!("{}", (volume * 100.0).round() as i32),
                "--".to_owned(),
                format!("<speak>{body}</speak>"),
            ]
            .into_iter()
            .map(OsString::from)
            .collect();
        }
        let volume = if u.volume.is_nan() {
            0.0
        } else {
            u.volume.clamp(0.0, 1.0)
        };
        let mut args: Vec<String> = match (self, u.lang) {
            (Engine::SpdSay, lang) => vec![
                "-w".into(),
                "-l".into(),
                code(lang).into(),
                "-i".into(),
                // speech-dispatcher: -100 (silent) … 0 (normal) … 100.
                format!("{}", (volume * 100.0).round() as i32 - 100),
            ],
            (Engine::EspeakNg, lang) => vec![
                "-v".into(),
                code(lang).into(),
                "-a".into(),
                // espeak-ng: 0 … 100 (normal) … 200.
                format!("{}", (volume * 100.0).round() as i32),
            ],
            (Engine::Say, Language::Korean) => vec!["-v".into(), "Yuna".into()],
            (Engine::Say, Language::English) => Vec::new(),
            (Engine::WindowsVoice, lang) => {
                // The words inside the script, in single quotes (a quote doubled); the script
                // as -EncodedCommand (UTF-16LE, base64), so no character of a name can reach
                // PowerShell's own parsing.
                let quoted = u.text.replace('\'', "''");
                let culture = match lang {
                    Language::English => "en",
                    Language::Korean => "ko",
                };
                let script = format!(
                    "Add-Type -AssemblyName System.Speech; \
                     $s = New-Object System.Speech.Synthesis.SpeechSynthesizer; \
                     $v = $s.GetInstalledVoices() | Where-Object {{ $_.Enabled -and \
                     $_.VoiceInfo.Culture.TwoLetterISOLanguageName -eq '{culture}' }} | \
                     Select-Object -First 1; \
                     if ($v) {{ $s.SelectVoice($v.VoiceInfo.Name) }}; \
                     $s.Volume = {}; $s.Speak('{quoted}')",
                    (volume * 100.0).round() as i32
                );
                let utf16: Vec<u8> = script.encode_utf16().flat_map(u16::to_le_bytes).collect();
                return ["-NoProfile", "-NonInteractive", "-EncodedCommand"]
                    .into_iter()
                    .map(OsString::from)
                    .chain([OsString::from(base64(&utf16))])
                    .collect();
            }
            (Engine::Recorder, _) => Vec::new(),
        };
        // The words last, after `--`: a name that starts with '-' is never an option.
        args.push("--".into());
        args.push(u.text.clone());
        args.into_iter().map(OsString::from).collect()
    }
}

/// Standard base64 (RFC 4648, with padding): what PowerShell's -EncodedCommand reads.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The language code engines know.
fn code(lang: Language) -> &'static str {
    match lang {
        Language::English => "en",
        Language::Korean => "ko",
    }
}

/// What went wrong with an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trouble {
    /// It did not finish within its limit and was killed.
    Hung(Duration),
    /// It ended with a failure (its exit code, if it had one).
    Failed(Option<i32>),
    /// It could not be started.
    NotStarted(std::io::ErrorKind),
    /// The speaking thread is gone.
    ThreadGone,
}

/// An engine's failure, as the table is told it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpeechProblem {
    /// The engine that failed.
    pub engine: Engine,
    /// How.
    pub trouble: Trouble,
    /// The engine that speaks from now on, when another was found.
    pub instead: Option<Engine>,
}

/// Something that says utterances. [`say`](Speaker::say) never blocks and never panics.
pub trait Speaker: Send + Sync {
    /// Says `utterance` (on its own thread); returns at once.
    fn say(&self, utterance: Utterance);
    /// The engine in use, or `None` when there is none (nothing is said).
    fn engine(&self) -> Option<Engine>;
    /// What went wrong since the last call: an engine that would not start, failed with no
    /// other to take over, or hung (also when another took over).
    fn take_problems(&self) -> Vec<SpeechProblem> {
        Vec::new()
    }
}

/// No speech engine: says nothing.
#[derive(Debug, Default)]
pub struct NoSpeaker;

impl Speaker for NoSpeaker {
    fn say(&self, _utterance: Utterance) {}
    fn engine(&self) -> Option<Engine> {
        None
    }
}

/// Remembers what it was asked to say: for tests.
#[derive(Debug, Default)]
pub struct RecordingSpeaker {
    said: Mutex<Vec<Utterance>>,
}

impl RecordingSpeaker {
    /// Everything asked so far, oldest first.
    pub fn said(&self) -> Vec<Utterance> {
        lock(&self.said).clone()
    }

    /// The words asked so far, oldest first.
    pub fn texts(&self) -> Vec<String> {
        lock(&self.said).iter().map(|u| u.text.clone()).collect()
    }
}

impl Speaker for RecordingSpeaker {
    fn say(&self, utterance: Utterance) {
        lock(&self.said).push(utterance);
    }
    fn engine(&self) -> Option<Engine> {
        Some(Engine::Recorder)
    }
}

/// Where `program` is on `path` (a `PATH`-style list), if it is an executable file there.
pub fn find_on(path: &OsStr, program: &str) -> Option<PathBuf> {
    // Windows' programs carry their extension (`powershell.exe`).
    let suffix = if cfg!(windows) { ".exe" } else { "" };
    std::env::split_paths(path)
        .map(|dir| dir.join(format!("{program}{suffix}")))
        .find(|file| is_executable(file))
}

#[cfg(unix)]
fn is_executable(file: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(file: &Path) -> bool {
    file.is_file()
}

/// Every engine on `path`, best first (see [`Engine::candidates`]), and where each is.
pub fn find_engines(path: &OsStr) -> VecDeque<(Engine, PathBuf)> {
    Engine::candidates()
        .iter()
        .filter_map(|&engine| find_on(path, engine.program()).map(|file| (engine, file)))
        .collect()
}

/// The speaker of this machine: the first engine on `PATH`, else [`NoSpeaker`].
pub fn open_default() -> Arc<dyn Speaker> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    open_on(&path)
}

/// The speaker with the first engine on `path` (the others behind it, should it fail), else
/// [`NoSpeaker`] (tests pass a folder of fake engines).
pub fn open_on(path: &OsStr) -> Arc<dyn Speaker> {
    let mut engines = find_engines(path);
    let started = engines
        .pop_front()
        .and_then(|(engine, file)| ProcessSpeaker::start_with(engine, file, engines).ok());
    match started {
        Some(speaker) => Arc::new(speaker),
        None => Arc::new(NoSpeaker),
    }
}

/// An engine run as a program, on a thread of its own: see the [module docs](self).
pub struct ProcessSpeaker {
    engine: Arc<Mutex<Engine>>,
    to_worker: Mutex<Sender<Utterance>>,
    problems: Arc<Mutex<Vec<SpeechProblem>>>,
}

impl std::fmt::Debug for ProcessSpeaker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProcessSpeaker")
            .field("engine", &self.engine)
            .finish_non_exhaustive()
    }
}

impl ProcessSpeaker {
    /// Starts the speaking thread for `engine`, the program at `program`. Fails only if the
    /// system refuses a thread.
    pub fn start(engine: Engine, program: PathBuf) -> std::io::Result<ProcessSpeaker> {
        ProcessSpeaker::start_with(engine, program, VecDeque::new())
    }

    /// Like [`start`](ProcessSpeaker::start), with engines to fall back on, in order, when
    /// one fails (speech-dispatcher without a working output module, say).
    pub fn start_with(
        engine: Engine,
        program: PathBuf,
        fallbacks: VecDeque<(Engine, PathBuf)>,
    ) -> std::io::Result<ProcessSpeaker> {
        let (to_worker, from_speaker) = mpsc::channel();
        let problems = Arc::new(Mutex::new(Vec::new()));
        let current = Arc::new(Mutex::new(engine));
        let worker = Worker {
            engine,
            program,
            fallbacks,
            current: Arc::clone(&current),
            from_speaker,
            waiting: VecDeque::new(),
            problems: Arc::clone(&problems),
        };
        std::thread::Builder::new()
            .name("speech".into())
            .spawn(move || worker.run())?;
        Ok(ProcessSpeaker {
            engine: current,
            to_worker: Mutex::new(to_worker),
            problems,
        })
    }
}

impl Speaker for ProcessSpeaker {
    fn say(&self, utterance: Utterance) {
        if lock(&self.to_worker).send(utterance).is_err() {
            let engine = *lock(&self.engine);
            lock(&self.problems).push(SpeechProblem {
                engine,
                trouble: Trouble::ThreadGone,
                instead: None,
            });
        }
    }

    fn engine(&self) -> Option<Engine> {
        Some(*lock(&self.engine))
    }

    fn take_problems(&self) -> Vec<SpeechProblem> {
        std::mem::take(&mut *lock(&self.problems))
    }
}

/// The speaking thread.
struct Worker {
    engine: Engine,
    program: PathBuf,
    /// The engines found after this one, tried in turn when it fails.
    fallbacks: VecDeque<(Engine, PathBuf)>,
    /// The engine in use, as the speaker reports it.
    current: Arc<Mutex<Engine>>,
    from_speaker: Receiver<Utterance>,
    waiting: VecDeque<Utterance>,
    problems: Arc<Mutex<Vec<SpeechProblem>>>,
}

/// What came in while waiting or speaking.
enum Came {
    /// Nothing that stops this utterance.
    Nothing,
    /// A new turn: stop, say the new one.
    CutOff,
    /// The speaker is gone: stop.
    Closed,
}

impl Worker {
    fn run(mut self) {
        loop {
            let next = match self.waiting.pop_front() {
                Some(u) => u,
                None => match self.from_speaker.recv() {
                    Ok(u) => u,
                    Err(_) => return,
                },
            };
            // speech-dispatcher may still be saying what an earlier client handed it; a
            // service that does not answer the cancel is wedged: the next engine says it.
            if next.cuts_off
                && self.engine == Engine::SpdSay
                && let Err(trouble) = self.cancel_spd()
            {
                let came = self.failed(trouble, next);
                if let Came::Closed = came {
                    return;
                }
                continue;
            }
            if let Came::Closed = self.speak(next) {
                return;
            }
        }
    }

    /// Takes in one utterance: a cutting one replaces everything that waits.
    fn take_in(&mut self, u: Utterance) -> Came {
        if u.cuts_off {
            self.waiting.clear();
            self.waiting.push_back(u);
            return Came::CutOff;
        }
        if self.waiting.len() == QUEUE {
            self.waiting.pop_front();
        }
        self.waiting.push_back(u);
        Came::Nothing
    }

    /// Waits up to `wait` for a new utterance.
    fn listen(&mut self, wait: Duration) -> Came {
        match self.from_speaker.recv_timeout(wait) {
            Ok(u) => self.take_in(u),
            Err(RecvTimeoutError::Timeout) => Came::Nothing,
            Err(RecvTimeoutError::Disconnected) => Came::Closed,
        }
    }

    fn speak(&mut self, u: Utterance) -> Came {
        // The cue first: wait out the alarm (a new turn meanwhile replaces these words).
        let until = Instant::now() + u.after;
        loop {
            let now = Instant::now();
            if now >= until {
                break;
            }
            match self.listen(until - now) {
                Came::Nothing => {}
                other => return other,
            }
        }
        // One call, or one per language for an engine that cannot switch voices.
        let calls = if self.engine.switches_voices() {
            vec![u.clone()]
        } else {
            u.split()
        };
        for call in &calls {
            match self.say_one(call) {
                Ok(Came::Nothing) => {}
                Ok(other) => return other,
                Err(trouble) => return self.failed(trouble, u),
            }
        }
        Came::Nothing
    }

    /// Runs the engine on one call and watches it until it ends, is cut off, or passes its
    /// limit (then it is killed).
    fn say_one(&mut self, u: &Utterance) -> Result<Came, Trouble> {
        let mut child = Command::new(&self.program)
            .args(self.engine.args(u))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Trouble::NotStarted(e.kind()))?;
        let limit = speak_limit(&u.text);
        let deadline = Instant::now() + limit;
        loop {
            match child.try_wait() {
                Ok(Some(status)) if status.success() => return Ok(Came::Nothing),
                Ok(Some(status)) => return Err(Trouble::Failed(status.code())),
                Ok(None) => {}
                Err(e) => {
                    self.stop(&mut child, false);
                    return Err(Trouble::NotStarted(e.kind()));
                }
            }
            if Instant::now() >= deadline {
                // A hung engine: killed, and no cancel asked of a service that does not
                // answer.
                self.stop(&mut child, false);
                return Err(Trouble::Hung(limit));
            }
            match self.listen(POLL) {
                Came::Nothing => {}
                other => {
                    self.stop(&mut child, true);
                    return Ok(other);
                }
            }
        }
    }

    /// The engine failed on `u`: the next engine found takes over and says it (at once),
    /// or, when none is left, the failure is reported. A hang is reported either way (the
    /// table waited for it).
    fn failed(&mut self, trouble: Trouble, u: Utterance) -> Came {
        let failed = self.engine;
        match self.fallbacks.pop_front() {
            Some((engine, program)) => {
                self.engine = engine;
                self.program = program;
                *lock(&self.current) = engine;
                self.waiting.push_front(Utterance {
                    after: Duration::ZERO,
                    ..u
                });
                if let Trouble::Hung(_) = trouble {
                    self.problem(failed, trouble, Some(engine));
                }
            }
            None => self.problem(failed, trouble, None),
        }
        Came::Nothing
    }

    /// Cuts off a running engine (and, when asked, speech-dispatcher's queue too).
    fn stop(&self, child: &mut Child, cancel: bool) {
        let _ = child.kill();
        let _ = child.wait();
        if cancel && self.engine == Engine::SpdSay {
            // A cancel that fails here is found by the next turn's cancel.
            let _ = self.cancel_spd();
        }
    }

    /// `spd-say -C`: speech-dispatcher drops what it is saying and what waits; within
    /// [`CANCEL_LIMIT`], else it is killed and the service counts as hung.
    fn cancel_spd(&self) -> Result<(), Trouble> {
        let mut child = Command::new(&self.program)
            .arg("-C")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| Trouble::NotStarted(e.kind()))?;
        let deadline = Instant::now() + CANCEL_LIMIT;
        loop {
            match child.try_wait() {
                // A cancel that fails (no service running) is no reason to stop speaking.
                Ok(Some(_)) => return Ok(()),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(POLL),
                Ok(None) | Err(_) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(Trouble::Hung(CANCEL_LIMIT));
                }
            }
        }
    }

    fn problem(&self, engine: Engine, trouble: Trouble, instead: Option<Engine>) {
        let mut problems = lock(&self.problems);
        if problems.len() < 16 {
            problems.push(SpeechProblem {
                engine,
                trouble,
                instead,
            });
        }
    }
}

/// What a [`Voice`] says things with: the table's language, the voice settings, the seats'
/// spoken names (their written names where they have none) and every spoken form by written
/// name.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct VoiceConfig {
    /// The table's language.
    pub lang: Language,
    /// The voice settings.
    pub settings: VoiceSettings,
    /// How each seat's name is said, in seat order.
    pub seats: Vec<String>,
    /// Written name → spoken form (for the sheet's winners).
    pub spoken: Vec<(String, String)>,
}

/// The speaker and what it says things with; shared by the evening and the timer's thread.
pub struct Voice {
    speaker: Arc<dyn Speaker>,
    config: Mutex<VoiceConfig>,
    /// Until when the last cue sounds: words wait for it (speech never covers the alarm).
    cue_until: Mutex<Option<Instant>>,
}

impl std::fmt::Debug for Voice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Voice")
            .field("engine", &self.speaker.engine())
            .finish_non_exhaustive()
    }
}

impl Voice {
    /// A voice on `speaker`, with the default configuration.
    pub fn new(speaker: Arc<dyn Speaker>) -> Voice {
        Voice {
            speaker,
            config: Mutex::new(VoiceConfig::default()),
            cue_until: Mutex::new(None),
        }
    }

    /// The speaker.
    pub fn speaker(&self) -> &dyn Speaker {
        self.speaker.as_ref()
    }

    /// Replaces what the voice says things with.
    pub fn configure(&self, config: VoiceConfig) {
        *lock(&self.config) = config;
    }

    /// The configuration in use.
    pub fn config(&self) -> VoiceConfig {
        lock(&self.config).clone()
    }

    /// A cue lasting `length` started now: whatever is said next waits until it has played
    /// (a turn ended during the time-up alarm is named after the alarm).
    pub fn cue_sounded(&self, length: Duration) {
        let until = Instant::now() + length;
        let mut cue_until = lock(&self.cue_until);
        *cue_until = Some(cue_until.map_or(until, |u| u.max(until)));
    }

    /// How long a cue still sounds.
    fn cue_left(&self) -> Duration {
        lock(&self.cue_until).map_or(Duration::ZERO, |until| {
            until.saturating_duration_since(Instant::now())
        })
    }

    /// How seat `seat`'s name is said.
    pub fn seat_name(&self, seat: usize) -> String {
        lock(&self.config)
            .seats
            .get(seat)
            .cloned()
            .unwrap_or_default()
    }

    /// How a written name is said (its spoken form, if it has one).
    pub fn spoken_name(&self, name: &str) -> String {
        let config = lock(&self.config);
        let key = crate::history::name_key(name);
        config
            .spoken
            .iter()
            .find(|(written, _)| crate::history::name_key(written) == key)
            .map_or_else(|| name.to_owned(), |(_, spoken)| spoken.clone())
    }

    /// Says `happening` in the table's language if the settings say it, `after` this long (and
    /// never while a cue sounds); returns whether it was handed to the speaker.
    pub fn announce(&self, happening: &Happening, after: Duration) -> bool {
        let config = self.config();
        self.say_in(config.lang, &config.settings, happening, after)
    }

    /// "Test voice": a sample in `lang`, said even with the voice off.
    pub fn test(&self, lang: Language) -> bool {
        let config = self.config();
        let name = config.seats.first().cloned().unwrap_or_else(|| match lang {
            Language::English => "Rumi".to_owned(),
            Language::Korean => "루미".to_owned(),
        });
        self.say_in(
            lang,
            &config.settings,
            &Happening::Test { name },
            Duration::ZERO,
        )
    }

    fn say_in(
        &self,
        lang: Language,
        settings: &VoiceSettings,
        happening: &Happening,
        after: Duration,
    ) -> bool {
        if !settings.says(happening) {
            return false;
        }
        let Some(engine) = self.speaker.engine() else {
            return false;
        };
        let runs: Vec<Words> = phrases::phrase_runs(lang, happening)
            .into_iter()
            .map(|(run_lang, words)| Words {
                text: if engine.respells() {
                    respell::for_engine(run_lang, &words)
                } else {
                    words
                },
                lang: run_lang,
            })
            .collect();
        self.speaker.say(Utterance {
            text: runs.iter().map(|r| r.text.as_str()).collect(),
            lang,
            runs,
            volume: settings.volume,
            after: after.max(self.cue_left()),
            cuts_off: happening.cuts_off(),
        });
        true
    }
}

/// Locks, ignoring poisoning.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_follows_the_rfc_4648_test_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain:?}");
        }
    }

    /// The script PowerShell would run, decoded back from -EncodedCommand.
    fn decoded(args: &[OsString]) -> String {
        let encoded = args.last().and_then(|a| a.to_str()).unwrap_or_default();
        let value = |c: u8| {
            b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                .iter()
                .position(|&x| x == c)
        };
        let mut bits = 0u32;
        let mut held = 0;
        let mut bytes = Vec::new();
        for c in encoded.bytes().filter(|&c| c != b'=') {
            bits = (bits << 6) | value(c).unwrap_or(0) as u32;
            held += 6;
            if held >= 8 {
                held -= 8;
                bytes.push((bits >> held) as u8);
            }
        }
        let units: Vec<u16> = bytes
            .chunks(2)
            .map(|p| u16::from_le_bytes([p[0], *p.get(1).unwrap_or(&0)]))
            .collect();
        String::from_utf16_lossy(&units)
    }

    #[test]
    fn the_windows_voice_gets_the_words_quoted_in_an_encoded_script_in_the_tables_language() {
        let u = Utterance {
            cuts_off: true,
            ..Utterance::plain("O'Neil 차례입니다; Remove-Item x", Language::Korean, 0.5)
        };
        let args = Engine::WindowsVoice.args(&u);
        assert_eq!(
            args[..3],
            ["-NoProfile", "-NonInteractive", "-EncodedCommand"]
        );
        let script = decoded(&args);
        assert!(
            script.contains("$s.Speak('O''Neil 차례입니다; Remove-Item x')"),
            "{script}"
        );
        assert!(script.contains("-eq 'ko'"), "{script}");
        assert!(script.contains("$s.Volume = 50;"), "{script}");
        assert!(
            !Engine::WindowsVoice.respells(),
            "Windows' Korean voice reads Hangul itself"
        );
    }
}
