//! Command-line subcommands for scripting and for settling arguments from a terminal.
//!
//! Every subcommand follows one exit-code convention: **0** yes / done, **1** a clear "no"
//! (invalid meld, threshold not reachable, audit found errors), **2** bad input or usage, with a
//! message on stderr naming the offending token, row or column. `--json` prints one JSON object
//! — on bad input too: `{"error": {"kind": …, "message": …}}` on stdout, the message still on
//! stderr. Options may come anywhere on the line (`check R5 R6 R7 --json`). Echoed input is cut
//! to a readable length ([`crate::tile::shorten`]). Output goes through `Write` handles so tests
//! can run commands in-process as well as through the built binary.
//!
//! The human-readable output and messages follow the table's language: `--lang ko|en` anywhere on
//! the line, else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, then the system's). JSON keys
//! and code values stay as they are; only `message`/`problem` strings follow the language.
//! clap's own usage and help text stays English (clap has no translation support).

use std::ffi::OsString;
use std::io::Write;

use clap::{Args, Parser, Subcommand};

use crate::i18n::Language;
use crate::rules::{Preset, RuleSet};
use crate::tile::TileSet;

mod check;
mod history;
mod score;
mod solve;
mod sound_test;
mod status;

/// Exit code: yes / done.
pub const EXIT_YES: i32 = 0;
/// Exit code: a clear "no".
pub const EXIT_NO: i32 = 1;
/// Exit code: bad input or usage.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Top-level arguments.
#[derive(Debug, Parser)]
#[command(
    name = "rummikub-companion",
    version,
    about = "Table-side Rummikub companion: turn timer, initial-meld checker, score sheet.",
    after_help = "Tiles: R7 B7 K7 O7 (also 빨강7 파랑7 검정7 주황7), joker J or 조커.\n\
                  Sets: separated by | ; or new lines, optionally declared run: / group:."
)]
pub struct Cli {
    /// Language of the output: ko (한국어) or en (default: the locale).
    #[arg(long, global = true, value_name = "ko|en", value_parser = parse_lang)]
    pub lang: Option<Language>,
    /// What to do; no subcommand prints this help.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Check an initial meld as laid on the table.
    Check(CheckArgs),
    /// Find the best initial meld hidden in an unordered rack.
    Solve(solve::SolveArgs),
    /// Score a multi-game sheet of remaining values (CSV).
    Score(score::ScoreArgs),
    /// Audit a hand-kept sheet of points (CSV).
    Audit(score::AuditArgs),
    /// Play the warning, tick and time-up sounds on the default output.
    SoundTest,
    /// Add up every saved sheet per player: evenings, games, match wins, points, head-to-head.
    History(history::HistoryArgs),
    /// Print the saved evening: the timer's table and the open sheet.
    Status(status::StatusArgs),
}

/// Reads `--lang`: `ko`/`korean`/`한국어` or `en`/`english` (any case).
fn parse_lang(text: &str) -> Result<Language, String> {
    match text.trim().to_lowercase().as_str() {
        "ko" | "kr" | "korean" | "한국어" => Ok(Language::Korean),
        "en" | "english" => Ok(Language::English),
        other => Err(format!(
            "\"{}\" is not a language (ko or en)",
            crate::tile::shorten(other)
        )),
    }
}

/// Whether the output is Korean (a short name for the many `if`s of the subcommands).
pub(super) fn korean(lang: Language) -> bool {
    lang == Language::Korean
}

/// Rule options shared by the subcommands that read rules.
#[derive(Debug, Args, Clone)]
pub struct RuleArgs {
    /// Rule preset: korean, english or tournament.
    #[arg(long, value_name = "P")]
    pub preset: Option<Preset>,
    /// Points the initial meld needs (default from the preset: 30).
    #[arg(long, value_name = "N")]
    pub threshold: Option<u32>,
    /// Use the XP set (three copies of each tile, four jokers).
    #[arg(long)]
    pub xp: bool,
}

impl RuleArgs {
    /// The rules these options describe.
    pub fn rules(&self) -> RuleSet {
        let mut rules = self.preset.unwrap_or_default().rules();
        if let Some(t) = self.threshold {
            rules.meld_threshold = t;
        }
        if self.xp {
            rules.tile_set = TileSet::Xp;
        }
        rules
    }
}

/// `check` arguments.
#[derive(Debug, Args)]
pub struct CheckArgs {
    #[command(flatten)]
    /// Rule options.
    pub rules: RuleArgs,
    /// House rule: no jokers in the initial meld.
    #[arg(long)]
    pub no_joker_meld: bool,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// The sets as laid on the table (arguments are joined with spaces).
    #[arg(value_name = "MELD", required = true)]
    pub meld: Vec<String>,
}

/// Parses `args` (program name first), runs the subcommand and returns the exit code.
/// Never panics on any input.
pub fn main<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    run(args, &mut stdout.lock(), &mut stderr.lock())
}

/// Like [`main`], writing to the given handles.
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e, &args, out, err),
    };
    let lang = cli.lang.unwrap_or_else(Language::of_system);
    match cli.command {
        Some(Command::Check(args)) => check::run(&args, lang, out, err),
        Some(Command::Solve(args)) => solve::run(&args, lang, out, err),
        Some(Command::Score(args)) => score::run_score(&args, lang, out, err),
        Some(Command::Audit(args)) => score::run_audit(&args, lang, out, err),
        Some(Command::SoundTest) => sound_test::run(lang, out, err),
        Some(Command::History(args)) => history::run(&args, lang, out, err),
        Some(Command::Status(args)) => status::run(&args, lang, out, err),
        None => {
            use clap::CommandFactory;
            let help = Cli::command().render_help().to_string();
            let _ = writeln!(out, "{help}");
            EXIT_YES
        }
    }
}

/// What kind of bad input: the `kind` of a `--json` error object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputError {
    /// The command line itself (unknown option, missing value, …).
    Usage,
    /// An argument or file that is not UTF-8.
    Encoding,
    /// A file that cannot be read.
    File,
    /// Tiles or sets that cannot be read.
    Notation,
    /// A rack the solver refuses (e.g. more copies than the set has).
    Rack,
    /// A CSV sheet that cannot be read or scored.
    Sheet,
}

impl InputError {
    /// The name in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            InputError::Usage => "usage",
            InputError::Encoding => "encoding",
            InputError::File => "file",
            InputError::Notation => "notation",
            InputError::Rack => "rack",
            InputError::Sheet => "sheet",
        }
    }
}

/// The first argument (1 = the subcommand) that is not UTF-8, as a message with the argument
/// number and the offset of the first invalid byte.
fn invalid_utf8_argument(args: &[OsString], lang: Language) -> Option<String> {
    args.iter().enumerate().skip(1).find_map(|(n, arg)| {
        if arg.to_str().is_some() {
            return None;
        }
        #[cfg(unix)]
        let offset = {
            use std::os::unix::ffi::OsStrExt;
            std::str::from_utf8(arg.as_bytes())
                .err()
                .map_or(0, |e| e.valid_up_to())
        };
        #[cfg(not(unix))]
        let offset = arg.to_string_lossy().find('\u{fffd}').unwrap_or_default();
        Some(if korean(lang) {
            format!("{n}번째 인자가 UTF-8 글자가 아닙니다 ({offset}번째 바이트가 잘못됨)")
        } else {
            format!("argument {n} is not UTF-8 text (invalid byte at offset {offset})")
        })
    })
}

/// The `--lang` value of a command line clap refused, if it has a readable one.
fn lang_in(args: &[OsString]) -> Option<Language> {
    let args: Vec<&str> = args.iter().filter_map(|a| a.to_str()).collect();
    args.iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--lang") {
            Some("") => args.get(i + 1).and_then(|v| parse_lang(v).ok()),
            Some(v) => v.strip_prefix('=').and_then(|v| parse_lang(v).ok()),
            None => None,
        })
}

/// A command line clap refused: help and version go to stdout (exit 0); a usage error is
/// reported like any bad input, with over-long arguments cut in clap's message.
fn usage_error(
    e: &clap::Error,
    args: &[OsString],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let mut text = e.render().to_string();
    if !e.use_stderr() {
        let _ = out.write_all(text.as_bytes());
        return EXIT_YES;
    }
    let json = args.iter().skip(1).any(|a| a == "--json");
    let lang = lang_in(args).unwrap_or_else(Language::of_system);
    if let Some(message) = invalid_utf8_argument(args, lang) {
        return bad_input(out, err, lang, json, InputError::Encoding, message);
    }
    for arg in args.iter().skip(1).filter_map(|a| a.to_str()) {
        if arg.chars().count() > crate::tile::ECHO_CHARS {
            text = text.replace(arg, &crate::tile::shorten(arg));
        }
    }
    let text = cut_long_words(&text);
    let _ = err.write_all(text.as_bytes());
    if json {
        let first = text.lines().next().unwrap_or_default();
        let message = first.strip_prefix("error: ").unwrap_or(first);
        print_json(out, &error_json(InputError::Usage, message));
    }
    EXIT_BAD_INPUT
}

/// Cuts every word of a message longer than twice [`crate::tile::ECHO_CHARS`] (an argument
/// echoed in another form, e.g. lower-cased by a value parser).
fn cut_long_words(text: &str) -> String {
    let cut = |word: &str| {
        if word.chars().count() > 2 * crate::tile::ECHO_CHARS {
            crate::tile::shorten(word)
        } else {
            word.to_owned()
        }
    };
    let mut out = String::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_whitespace() {
            out.push_str(&cut(&word));
            word.clear();
            out.push(c);
        } else {
            word.push(c);
        }
    }
    out.push_str(&cut(&word));
    out
}

fn error_json(kind: InputError, message: &str) -> serde_json::Value {
    serde_json::json!({"error": {"kind": kind.name(), "message": message}})
}

/// Reports bad input on stderr (and, with `--json`, as an error object on stdout) and returns
/// [`EXIT_BAD_INPUT`].
fn bad_input(
    out: &mut dyn Write,
    err: &mut dyn Write,
    lang: Language,
    json: bool,
    kind: InputError,
    message: impl std::fmt::Display,
) -> i32 {
    let message = message.to_string();
    let _ = writeln!(err, "{} {message}", error_prefix(lang));
    if json {
        print_json(out, &error_json(kind, &message));
    }
    EXIT_BAD_INPUT
}

/// The word before a message on stderr: `error:` or `오류:`.
fn error_prefix(lang: Language) -> &'static str {
    if korean(lang) { "오류:" } else { "error:" }
}

/// The word before a warning on stderr: `warning:` or `경고:`.
fn warning_prefix(lang: Language) -> &'static str {
    if korean(lang) { "경고:" } else { "warning:" }
}

/// Writes a JSON value on one line.
fn print_json(out: &mut dyn Write, value: &serde_json::Value) {
    let _ = writeln!(out, "{value}");
}
