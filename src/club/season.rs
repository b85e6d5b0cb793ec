//! A season across venues, as the command line (`season …`, `event export`) and the window's
//! Season view both do it: a new season, bundles imported all or nothing, an event sealed with
//! the venue's key. One code for both; each write holds the seasons' lock for a moment
//! ([`SeasonStore`]), so two imports never lose one another.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::event::Event;
use crate::event::bundle::{self, Opened, Venue};
use crate::event::season::{Added, Season, SeasonPoints};
use crate::i18n;
use crate::i18n::event::season as words;
use crate::lang::Language;
use crate::store::{SeasonId, SeasonStore, Store, StoreError};

/// How long a season's write waits for another that holds the seasons a moment.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// A bundle imported: the file, what it was, and how it was taken.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The file as named.
    pub file: String,
    /// The bundle.
    pub opened: Opened,
    /// How the season took it.
    pub added: Added,
}

/// An import refused: every file's refusal (worded), nothing added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportRefused {
    /// Each refused file's words, in order.
    pub messages: Vec<String>,
}

/// `--points`: `entrants`, or a list of whole numbers by place; `None` is `entrants`.
pub fn points_rule(text: Option<&str>, lang: Language) -> Result<SeasonPoints, String> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(SeasonPoints::Entrants);
    };
    if text.eq_ignore_ascii_case("entrants") {
        return Ok(SeasonPoints::Entrants);
    }
    text.split(',')
        .map(|v| v.trim().parse::<u32>())
        .collect::<Result<Vec<u32>, _>>()
        .map(SeasonPoints::List)
        .map_err(|_| words::not_points(lang, text))
}

/// Makes a season in data folder `dir`.
pub fn create(
    dir: &Path,
    name: &str,
    points: SeasonPoints,
    best: Option<u32>,
    now: DateTime<Utc>,
    lang: Language,
) -> Result<(SeasonId, Season), String> {
    let season = Season::new(name, points, best).map_err(|r| words::refusal(lang, &r))?;
    let store = SeasonStore::open(dir, LOCK_WAIT).map_err(|e| i18n::store_error(lang, &e))?;
    let id = store.new_season_id(now);
    store
        .save(&id, &season)
        .map_err(|e| i18n::store_error(lang, &e))?;
    Ok((id, season))
}

/// The season named (its id or name) or the most recent, refused in words when there is none.
pub fn season_id(store: &Store, name: Option<&str>, lang: Language) -> Result<SeasonId, String> {
    store
        .find_season(name)
        .map_err(|e| i18n::store_error(lang, &e))?
        .ok_or_else(|| words::no_season(lang, name))
}

/// Imports the bundles `files` into season `season` (or the most recent) of data folder
/// `dir`: all of them, or none with every refusal said.
pub fn import(
    dir: &Path,
    season: Option<&str>,
    files: &[PathBuf],
    lang: Language,
) -> Result<(Season, Vec<Imported>), ImportRefused> {
    let refused = |message: String| ImportRefused {
        messages: vec![message],
    };
    let store =
        SeasonStore::open(dir, LOCK_WAIT).map_err(|e| refused(i18n::store_error(lang, &e)))?;
    let id = season_id(store.store(), season, lang).map_err(refused)?;
    let mut kept = store
        .load(&id)
        .map_err(|e| refused(i18n::store_error(lang, &e)))?
        .value;
    let mut done = Vec::new();
    let mut messages = Vec::new();
    for file in files {
        let shown = file.display().to_string();
        let opened = std::fs::read_to_string(file)
            .map_err(|e| words::unreadable(lang, &shown, &crate::i18n::io_error(lang, &e)))
            .and_then(|text| {
                bundle::open(&text).map_err(|p| format!("{shown}: {}", words::problem(lang, &p)))
            });
        match opened {
            Ok(opened) => match kept.add(&opened) {
                Ok(added) => done.push(Imported {
                    file: shown,
                    opened,
                    added,
                }),
                Err(r) => messages.push(format!("{shown}: {}", words::refusal(lang, &r))),
            },
            Err(message) => messages.push(message),
        }
    }
    if !messages.is_empty() {
        return Err(ImportRefused { messages });
    }
    if done
        .iter()
        .any(|i| matches!(i.added, Added::New | Added::Replaced))
    {
        store
            .save(&id, &kept)
            .map_err(|e| refused(i18n::store_error(lang, &e)))?;
    }
    Ok((kept, done))
}

/// Seals event `event` (id `id`) with data folder `dir`'s venue key (made the first time,
/// named `venue` when given): the venue and the bundle's text.
pub fn seal(
    dir: &Path,
    venue: Option<&str>,
    id: &str,
    event: &Event,
    now: DateTime<Utc>,
) -> Result<(Venue, String), StoreError> {
    let venue = crate::store::venue(dir, venue)?;
    let text = bundle::seal(&venue, id, now, event).map_err(|e| StoreError::Write {
        file: PathBuf::from(id),
        source: std::io::Error::other(e),
    })?;
    Ok((venue, text))
}
