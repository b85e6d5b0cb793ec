//! Command-line subcommands for scripting and for settling arguments from a terminal.
//!
//! Every subcommand follows one exit-code convention: **0** yes / done, **1** a clear "no"
//! (invalid meld, threshold not reachable, audit found errors), **2** bad input or usage, with a
//! message on stderr naming the offending token, row or column. `--json` prints one JSON object
//! — on bad input too: `{"error": {"kind": …, "message": …}}` on stdout, the message still on
//! stderr. Options may come anywhere on the line (`check R5 R6 R7 --json`). Echoed input is cut
//! to a readable length ([`crate::tile::shorten`]), and nothing from outside reaches the
//! terminal as control characters: every byte printed passes [`crate::tile::printable`] in one
//! place (the [`Terminal`] the output handles are wrapped in), JSON with such characters
//! escaped. Output goes through `Write` handles so tests can run commands in-process as well as
//! through the built binary.
//!
//! The output and messages follow the table's language: `--lang ko|en` anywhere on the line,
//! else the locale (`LC_ALL`, `LC_MESSAGES`, `LANG`, then the system's). The language is read
//! before clap parses, because clap has no translations: its help (every about and help text,
//! the headings and the usage line) and its errors are worded from [`crate::i18n::cli`], in
//! Korean by this module's [`localize`] and `korean_usage_error`. JSON keys and code values
//! stay as they are; only `message`/`problem` strings follow the language. Every message lives
//! in [`crate::i18n::cli`]; this module and the subcommands' own only lay the words out.

use std::ffi::OsString;
use std::io::{self, Write};

use clap::{ArgAction, Args, FromArgMatches, Parser, Subcommand};

use crate::i18n::cli::{self as words, help};
use crate::lang::Language;
use crate::rules::{Preset, RuleSet};
use crate::tile::TileSet;

mod check;
mod event;
mod history;
mod play;
mod score;
mod season;
mod solve;
mod sound_test;
mod status;
mod window;

pub use window::{window_failed, window_message};

/// Exit code: yes / done.
pub const EXIT_YES: i32 = 0;
/// Exit code: a clear "no".
pub const EXIT_NO: i32 = 1;
/// Exit code: bad input or usage.
pub const EXIT_BAD_INPUT: i32 = 2;

/// Top-level arguments. The about and help texts clap shows come from
/// [`crate::i18n::cli::help`] ([`localize`]), in the user's language.
#[derive(Debug, Parser)]
#[command(name = "rummikub-companion", version)]
pub struct Cli {
    /// `--lang`: the language of the output.
    #[arg(long, global = true, value_name = "ko|en", value_parser = parse_lang)]
    pub lang: Option<Language>,
    /// The subcommand; none prints the help.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// `check`.
    Check(CheckArgs),
    /// `solve`.
    Solve(solve::SolveArgs),
    /// `score`.
    Score(score::ScoreArgs),
    /// `audit`.
    Audit(score::AuditArgs),
    /// `sound-test`.
    SoundTest,
    /// `history`.
    History(history::HistoryArgs),
    /// `status`.
    Status(status::StatusArgs),
    /// `event`: a club night.
    Event(event::EventArgs),
    /// `season`: a season across venues.
    Season(season::SeasonArgs),
    /// `play`.
    Play(play::PlayArgs),
    /// `referee`.
    Referee(play::RefereeArgs),
}

/// Reads `--lang` ([`words::language_named`]); clap words the refusal (in English its own way,
/// in Korean `korean_usage_error`'s).
fn parse_lang(text: &str) -> Result<Language, String> {
    words::language_named(text)
        .ok_or_else(|| words::not_a_language(Language::English, &text.trim().to_lowercase()))
}

/// Rule options shared by the subcommands that read rules.
#[derive(Debug, Args, Clone)]
pub struct RuleArgs {
    /// `--preset`: the rule preset.
    #[arg(long, value_name = "P")]
    pub preset: Option<Preset>,
    /// `--threshold`: the points the initial meld needs.
    #[arg(long, value_name = "N")]
    pub threshold: Option<u32>,
    /// `--xp`: the XP set.
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
    /// `--no-joker-meld`: the house rule of no jokers in the initial meld.
    #[arg(long)]
    pub no_joker_meld: bool,
    /// `--json`.
    #[arg(long)]
    pub json: bool,
    /// The sets as laid on the table.
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

/// Like [`main`], writing to the given handles (through a [`Terminal`] each).
pub fn run<I, T>(args: I, out: &mut dyn Write, err: &mut dyn Write) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let out = &mut Terminal::new(out);
    let err = &mut Terminal::new(err);
    // Before clap: its help and its errors are in this language too.
    let lang = lang_in(&args).unwrap_or_else(Language::of_system);
    let mut command = localize(lang);
    let cli = match command
        .try_get_matches_from_mut(&args)
        .and_then(|matches| Cli::from_arg_matches(&matches))
    {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e, &args, lang, out, err),
    };
    let lang = cli.lang.unwrap_or(lang);
    match cli.command {
        Some(Command::Check(args)) => check::run(&args, lang, out, err),
        Some(Command::Solve(args)) => solve::run(&args, lang, out, err),
        Some(Command::Score(args)) => score::run_score(&args, lang, out, err),
        Some(Command::Audit(args)) => score::run_audit(&args, lang, out, err),
        Some(Command::SoundTest) => sound_test::run(lang, out, err),
        Some(Command::History(args)) => history::run(&args, lang, out, err),
        Some(Command::Status(args)) => status::run(&args, lang, out, err),
        Some(Command::Event(args)) => event::run(&args, lang, out, err),
        Some(Command::Season(args)) => season::run(&args, lang, out, err),
        Some(Command::Play(args)) => play::run_play(&args, lang, out, err),
        Some(Command::Referee(args)) => play::run_referee(&args, lang, out, err),
        None => {
            let help = command.render_help().to_string();
            let _ = writeln!(out, "{help}");
            EXIT_YES
        }
    }
}

/// clap's command with every about and help text in `lang` ([`help`]); in Korean also clap's
/// own words: the headings, the `--help`/`--version` flags, the `help` subcommand and the
/// usage line's placeholders. Built, so the `help` subcommand clap adds can be worded too.
pub fn localize(lang: Language) -> clap::Command {
    use clap::CommandFactory;
    let usages = if lang == Language::English {
        Vec::new()
    } else {
        usages(lang)
    };
    let mut command = localize_command(Cli::command(), "", "", lang, &usages)
        .about(help::ABOUT.get(lang))
        .after_help(help::AFTER_HELP.get(lang));
    if lang != Language::English {
        let version = help::arg("", "version").map_or("", |t| t.get(lang));
        command = command.disable_version_flag(true).arg(
            clap::Arg::new("version")
                .short('V')
                .long("version")
                .action(ArgAction::Version)
                .help(version)
                .help_heading(help::OPTIONS.get(lang)),
        );
    }
    command.build();
    if let Some(about) = help::about("help") {
        command = command.mut_subcommand("help", |c| c.about(about.get(lang)));
    }
    command
}

/// Every command's usage line (the top's under ""), as clap makes it, with its placeholders
/// in `lang`.
fn usages(lang: Language) -> Vec<(String, String)> {
    use clap::CommandFactory;
    let mut english = Cli::command();
    english.build();
    let line = |c: &mut clap::Command| {
        let usage = c.render_usage().to_string();
        let usage = usage
            .split_once(' ')
            .map_or(usage.as_str(), |(_, rest)| rest);
        help::usage_words(lang, usage)
    };
    let mut usages = vec![(String::new(), line(&mut english))];
    for c in english.get_subcommands_mut() {
        usages.push((c.get_name().to_owned(), line(c)));
    }
    usages
}

/// One command of [`localize`], then its subcommands.
fn localize_command(
    mut command: clap::Command,
    parent: &str,
    name: &str,
    lang: Language,
    usages: &[(String, String)],
) -> clap::Command {
    // A subcommand's words are looked up by its path first (`season new`: only paths whose
    // last name another command has too), then by its name.
    let qualified = format!("{parent} {name}");
    let about = crate::i18n::event::help::about_at(&qualified).or_else(|| help::about(name));
    if let Some(about) = about {
        command = command.about(about.get(lang));
    }
    let korean = lang != Language::English;
    // Positionals first: clap lists custom headings in the order their arguments come.
    let mut ids: Vec<(bool, String)> = command
        .get_arguments()
        .map(|a| (!a.is_positional(), a.get_id().to_string()))
        .collect();
    ids.sort_by_key(|(option, _)| *option);
    for (option, id) in ids {
        let text =
            crate::i18n::event::help::arg_at(&qualified, &id).or_else(|| help::arg(name, &id));
        command = command.mut_arg(&id, |mut arg| {
            if let Some(text) = text {
                arg = arg.help(text.get(lang));
            }
            if korean {
                let heading = if option {
                    help::OPTIONS
                } else {
                    help::ARGUMENTS
                };
                arg = arg.help_heading(heading.get(lang));
                if arg.get_action().takes_values() {
                    // The Korean help names the default itself.
                    arg = arg.hide_default_value(true);
                }
            }
            arg
        });
    }
    if korean {
        let help = help::arg(name, "help").map_or("", |t| t.get(lang));
        command = command
            .disable_help_flag(true)
            .arg(
                clap::Arg::new("help")
                    .short('h')
                    .long("help")
                    .action(ArgAction::Help)
                    .help(help)
                    .help_heading(help::OPTIONS.get(lang)),
            )
            .subcommand_help_heading(help::COMMANDS.get(lang))
            .help_template(format!(
                "{{before-help}}{{about-with-newline}}\n{}: {{usage}}\n\n{{all-args}}{{after-help}}",
                help::USAGE.get(lang)
            ));
        if let Some((_, usage)) = usages.iter().find(|(n, _)| n == name) {
            command = command.override_usage(usage.clone());
        }
    }
    let subcommands: Vec<String> = command
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .collect();
    for sub in subcommands {
        command = command.mut_subcommand(&sub, |c| localize_command(c, name, &sub, lang, usages));
    }
    command
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
        Some(words::argument_not_utf8(lang, n, offset))
    })
}

/// The `--lang` value of a command line, if it has a readable one (read before clap parses).
fn lang_in(args: &[OsString]) -> Option<Language> {
    let args: Vec<&str> = args
        .iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .take_while(|a| *a != "--")
        .collect();
    args.iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--lang") {
            Some("") => args.get(i + 1).and_then(|v| words::language_named(v)),
            Some(v) => v.strip_prefix('=').and_then(words::language_named),
            None => None,
        })
}

/// A command line clap refused: help and version go to stdout (exit 0); a usage error is
/// reported like any bad input (in Korean worded by [`korean_usage_error`]), with over-long
/// arguments cut in the message.
fn usage_error(
    e: &clap::Error,
    args: &[OsString],
    lang: Language,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    if !e.use_stderr() {
        let _ = out.write_all(e.render().to_string().as_bytes());
        return EXIT_YES;
    }
    let json = args.iter().skip(1).any(|a| a == "--json");
    if let Some(message) = invalid_utf8_argument(args, lang) {
        return bad_input(out, err, lang, json, InputError::Encoding, message);
    }
    let mut text = match lang {
        Language::English => e.render().to_string(),
        Language::Korean => korean_usage_error(e),
    };
    for arg in args.iter().skip(1).filter_map(|a| a.to_str()) {
        if arg.chars().count() > crate::tile::ECHO_CHARS {
            text = text.replace(arg, &crate::tile::shorten(arg));
        }
    }
    let text = cut_long_words(&text);
    let _ = err.write_all(text.as_bytes());
    if json {
        let first = text.lines().next().unwrap_or_default();
        let prefix = format!("{} ", words::ERROR.get(lang));
        let message = first.strip_prefix(&prefix).unwrap_or(first);
        print_json(out, &error_json(InputError::Usage, message));
    }
    EXIT_BAD_INPUT
}

/// A clap error in Korean, laid out as clap lays out its own: the message naming the argument,
/// a hint, the usage line, and where to read more.
fn korean_usage_error(e: &clap::Error) -> String {
    use clap::error::{ContextKind as C, ContextValue as V};
    let lang = Language::Korean;
    let one = |kind| match e.get(kind) {
        Some(V::String(s)) => Some(s.as_str()),
        Some(V::Strings(v)) => v.first().map(String::as_str),
        _ => None,
    };
    let all = |kind| match e.get(kind) {
        Some(V::String(s)) => vec![s.as_str()],
        Some(V::Strings(v)) => v.iter().map(String::as_str).collect(),
        _ => Vec::new(),
    };
    let number = |kind| match e.get(kind) {
        Some(V::Number(n)) => Some(*n),
        _ => None,
    };
    let kind = e.kind();
    let missing = kind == clap::error::ErrorKind::MissingRequiredArgument;
    let refused = words::clap_error::Refused {
        kind,
        arg: if missing {
            None
        } else {
            one(C::InvalidArg).or_else(|| one(C::InvalidSubcommand))
        },
        value: one(C::InvalidValue),
        others: if missing {
            all(C::InvalidArg)
        } else {
            all(C::PriorArg)
        },
        counts: number(C::ExpectedNumValues)
            .or_else(|| number(C::MinValues))
            .zip(number(C::ActualNumValues)),
    };
    let mut text = format!(
        "{} {}\n",
        words::ERROR.get(lang),
        words::clap_error::message(&refused)
    );
    let hint = one(C::SuggestedArg)
        .or_else(|| one(C::SuggestedSubcommand))
        .map(words::clap_error::did_you_mean)
        .or_else(|| {
            (kind == clap::error::ErrorKind::UnknownArgument)
                .then_some(refused.arg)
                .flatten()
                .filter(|a| a.starts_with('-'))
                .map(words::clap_error::as_value)
        });
    if let Some(hint) = hint {
        text.push_str(&format!("\n  {hint}\n"));
    }
    if let Some(V::StyledStr(usage)) = e.get(C::Usage) {
        let usage = usage.to_string();
        let usage = usage
            .split_once(' ')
            .map_or(usage.as_str(), |(_, rest)| rest);
        text.push_str(&format!("\n{}: {usage}\n", help::USAGE.get(lang)));
    }
    text.push_str(&format!("\n{}\n", help::MORE.get(lang)));
    text
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
    let _ = writeln!(err, "{} {message}", words::ERROR.get(lang));
    if json {
        print_json(out, &error_json(kind, &message));
    }
    EXIT_BAD_INPUT
}

/// Writes a JSON value on one line. A character a terminal must not get raw (a C1 control, a
/// bidirectional override, DEL) is written as its `\uXXXX` escape — the same string to a JSON
/// reader — so [`Terminal`] has nothing to drop from JSON.
fn print_json(out: &mut dyn Write, value: &serde_json::Value) {
    let mut line = String::new();
    for c in value.to_string().chars() {
        if crate::tile::is_unprintable(c) {
            line.push_str(&format!("\\u{:04x}", u32::from(c)));
        } else {
            line.push(c);
        }
    }
    let _ = writeln!(out, "{line}");
}

/// An output handle that passes on only what a terminal may show: each write's text through
/// [`crate::tile::printable`] (no control character or escape sequence from an argument, a
/// file or a file name reaches the terminal). The one place the command line's output is made
/// safe; a character split across writes waits for its other bytes.
pub struct Terminal<'a> {
    inner: &'a mut dyn Write,
    pending: Vec<u8>,
}

impl<'a> Terminal<'a> {
    /// Wraps `inner`.
    pub fn new(inner: &'a mut dyn Write) -> Terminal<'a> {
        Terminal {
            inner,
            pending: Vec::new(),
        }
    }
}

impl Write for Terminal<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.pending.extend_from_slice(buf);
        let mut text = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(all) => {
                    text.push_str(all);
                    self.pending.clear();
                    break;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    text.push_str(&String::from_utf8_lossy(&self.pending[..valid]));
                    match e.error_len() {
                        Some(bad) => {
                            text.push(char::REPLACEMENT_CHARACTER);
                            self.pending.drain(..valid + bad);
                        }
                        None => {
                            // An incomplete character at the end: wait for the rest.
                            self.pending.drain(..valid);
                            break;
                        }
                    }
                }
            }
        }
        self.inner
            .write_all(crate::tile::printable(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
