//! A season across venues: each venue's events, imported as signed bundles
//! ([`super::bundle`]), add up to one ranking — with no server, each venue on its own laptop.
//!
//! - **Which bundles count.** An event is known by its venue's key and its id there: the same
//!   export twice counts once, a newer export of the same event replaces the older (an older
//!   one is kept out). The first key seen for a venue's name is that venue's: a bundle naming
//!   the venue but signed with another key is refused, naming the venue. Only a finished event
//!   counts (every table of its last round in).
//! - **Points.** An event's entrants are its players with a game counted, placed by the
//!   event's own standings (finals first). By default an entrant placed p of E gets E − p + 1
//!   ([`SeasonPoints::Entrants`]); with a list, place p gets the list's p-th value, 0 past its
//!   end. Players sharing a place get that place's points. With `best` K, a player's K best
//!   events count.
//! - **Who is who.** A player is matched across venues by the id the players file gave
//!   (trimmed, case-folded); without an id, by name and club (trimmed, case-folded) — joining
//!   the one player with an id who has that name and club, if exactly one has.
//! - **Ties** on points are broken by countback (more firsts, then more seconds, …); players
//!   equal on all of it share the rank. A line shows the spelling of the player's latest event.

use std::collections::BTreeMap;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::bundle::Opened;
use super::folded;

/// The most places a points list may have.
pub const MAX_POINTS_PLACES: usize = 1000;

/// How an event's places become season points.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeasonPoints {
    /// Place p of E entrants gets E − p + 1.
    #[default]
    Entrants,
    /// Place p gets the p-th value (0 past the end).
    List(Vec<u32>),
}

impl SeasonPoints {
    /// The points of place `place` (1-based) of `entrants`.
    ///
    /// ```
    /// use rummikub_companion::event::season::SeasonPoints;
    /// assert_eq!(SeasonPoints::Entrants.of(1, 12), 12);
    /// assert_eq!(SeasonPoints::Entrants.of(12, 12), 1);
    /// assert_eq!(SeasonPoints::List(vec![25, 18, 15]).of(2, 30), 18);
    /// assert_eq!(SeasonPoints::List(vec![25, 18, 15]).of(4, 30), 0);
    /// ```
    pub fn of(&self, place: usize, entrants: usize) -> i64 {
        match self {
            SeasonPoints::Entrants => {
                i64::try_from((entrants + 1).saturating_sub(place)).unwrap_or(0)
            }
            SeasonPoints::List(list) => place
                .checked_sub(1)
                .and_then(|i| list.get(i))
                .map_or(0, |&v| i64::from(v)),
        }
    }
}

/// A venue and the key first seen for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownVenue {
    /// The venue's name as first seen.
    pub name: String,
    /// Its public key (hex).
    pub key: String,
}

/// One entrant's place in an event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placing {
    /// The name as the venue registered it.
    pub name: String,
    /// The club, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub club: Option<String>,
    /// The id across venues, if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The place (1-based; shared by equal players).
    pub place: usize,
}

/// An event of the season: where, which, when exported, and its entrants' places.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeasonEvent {
    /// The venue's name.
    pub venue: String,
    /// The venue's key (hex).
    pub key: String,
    /// The event's id at the venue.
    pub event_id: String,
    /// The event's name.
    pub name: String,
    /// When the counted export was made.
    pub exported: DateTime<Utc>,
    /// The counted export's signature (hex).
    pub signature: String,
    /// The entrants, best first.
    pub placings: Vec<Placing>,
}

/// A season: its rule and its events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Season {
    /// The name.
    pub name: String,
    /// How places become points.
    #[serde(default)]
    pub points: SeasonPoints,
    /// Count only each player's best K events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best: Option<u32>,
    /// Every venue seen, with its key.
    #[serde(default)]
    pub venues: Vec<KnownVenue>,
    /// The events counted, in the order imported.
    #[serde(default)]
    pub events: Vec<SeasonEvent>,
}

/// What an import did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Added {
    /// A new event counts.
    New,
    /// A newer export replaced the one counted.
    Replaced,
    /// This export counts already.
    AlreadyIn,
    /// An older export than the one counted: kept out.
    OlderKept,
}

/// Why a season or an import is refused (nothing changed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeasonRefusal {
    /// The season's name is empty.
    EmptyName,
    /// A points list is empty or too long.
    BadPoints,
    /// `best` is 0.
    BadBest,
    /// The bundle names a known venue but is signed with another key.
    VenueKey {
        /// The venue.
        venue: String,
    },
    /// The event is not finished: its last round has tables without a result.
    Unfinished {
        /// The event's name.
        event: String,
        /// The round.
        round: u32,
    },
    /// The event has no game counted.
    NoResults {
        /// The event's name.
        event: String,
    },
}

/// One player's line of the season.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SeasonStanding {
    /// 1-based; equal players share it.
    pub rank: usize,
    /// The name (as in the player's latest event).
    pub name: String,
    /// The club (as in the player's latest event).
    pub club: Option<String>,
    /// The id across venues, if any.
    pub id: Option<String>,
    /// Season points (the best K events' when the season counts the best K).
    pub points: i64,
    /// Events played.
    pub events: usize,
    /// Events counted.
    pub counted: usize,
    /// The player's place in each event played (in the season's event order; `None` where
    /// they did not play).
    pub places: Vec<Option<usize>>,
}

impl Season {
    /// A new season without events.
    pub fn new(
        name: &str,
        points: SeasonPoints,
        best: Option<u32>,
    ) -> Result<Season, SeasonRefusal> {
        if name.trim().is_empty() {
            return Err(SeasonRefusal::EmptyName);
        }
        if let SeasonPoints::List(list) = &points
            && (list.is_empty() || list.len() > MAX_POINTS_PLACES)
        {
            return Err(SeasonRefusal::BadPoints);
        }
        if best == Some(0) {
            return Err(SeasonRefusal::BadBest);
        }
        Ok(Season {
            name: name.trim().to_owned(),
            points,
            best,
            venues: Vec::new(),
            events: Vec::new(),
        })
    }

    /// Imports a checked bundle (see the [module docs](self)): all of it, or nothing and why.
    pub fn add(&mut self, bundle: &Opened) -> Result<Added, SeasonRefusal> {
        let payload = &bundle.payload;
        let venue_name = payload.venue.trim();
        let known = self
            .venues
            .iter()
            .find(|v| folded(&v.name) == folded(venue_name));
        if let Some(known) = known
            && !known.key.eq_ignore_ascii_case(&payload.key)
        {
            return Err(SeasonRefusal::VenueKey {
                venue: known.name.clone(),
            });
        }
        let event = &payload.event;
        if let Some(last) = event.rounds().last()
            && !last.is_complete()
        {
            return Err(SeasonRefusal::Unfinished {
                event: event.setup().name.clone(),
                round: last.number,
            });
        }
        let standings = event.entrants_standings();
        if standings.rows.is_empty() {
            return Err(SeasonRefusal::NoResults {
                event: event.setup().name.clone(),
            });
        }
        let placings = standings
            .rows
            .iter()
            .map(|s| {
                let player = &event.players()[s.player];
                Placing {
                    name: player.name.clone(),
                    club: player.club.clone(),
                    id: player.id.clone(),
                    place: s.rank,
                }
            })
            .collect();
        let entry = SeasonEvent {
            venue: venue_name.to_owned(),
            key: payload.key.to_lowercase(),
            event_id: payload.event_id.clone(),
            name: event.setup().name.clone(),
            exported: payload.exported,
            signature: bundle.signature.clone(),
            placings,
        };
        if known.is_none() {
            self.venues.push(KnownVenue {
                name: entry.venue.clone(),
                key: entry.key.clone(),
            });
        }
        let same = self
            .events
            .iter()
            .position(|e| e.key == entry.key && e.event_id == entry.event_id);
        Ok(match same {
            Some(i) if self.events[i].signature == entry.signature => Added::AlreadyIn,
            Some(i) if self.events[i].exported >= entry.exported => Added::OlderKept,
            Some(i) => {
                self.events[i] = entry;
                Added::Replaced
            }
            None => {
                self.events.push(entry);
                Added::New
            }
        })
    }

    /// Each placing's player, as an index into the returned players: matched by id, else by
    /// name and club (see the [module docs](self)). `who[e][i]` is event e's i-th placing's.
    fn players(&self) -> (Vec<Vec<usize>>, usize) {
        let name_key = |p: &Placing| {
            format!(
                "{}\u{1f}{}",
                folded(&p.name),
                p.club.as_deref().map(folded).unwrap_or_default()
            )
        };
        let id_key = |p: &Placing| p.id.as_deref().map(folded).filter(|id| !id.is_empty());
        // The ids seen with each name and club.
        let mut ids_of_name: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for p in self.events.iter().flat_map(|e| &e.placings) {
            if let Some(id) = id_key(p) {
                let ids = ids_of_name.entry(name_key(p)).or_default();
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        let mut index: BTreeMap<String, usize> = BTreeMap::new();
        let mut who = Vec::with_capacity(self.events.len());
        for event in &self.events {
            let mut row = Vec::with_capacity(event.placings.len());
            for p in &event.placings {
                let key = match id_key(p) {
                    Some(id) => format!("id:{id}"),
                    None => match ids_of_name.get(&name_key(p)).map(Vec::as_slice) {
                        Some([only]) => format!("id:{only}"),
                        _ => format!("name:{}", name_key(p)),
                    },
                };
                let next = index.len();
                row.push(*index.entry(key).or_insert(next));
            }
            who.push(row);
        }
        (who, index.len())
    }

    /// The season's standings (see the [module docs](self)).
    pub fn standings(&self) -> Vec<SeasonStanding> {
        let (who, count) = self.players();
        let mut lines: Vec<SeasonStanding> = (0..count)
            .map(|_| SeasonStanding {
                rank: 0,
                name: String::new(),
                club: None,
                id: None,
                points: 0,
                events: 0,
                counted: 0,
                places: vec![None; self.events.len()],
            })
            .collect();
        let mut latest: Vec<Option<DateTime<Utc>>> = vec![None; count];
        let mut earned: Vec<Vec<i64>> = vec![Vec::new(); count];
        for (e, event) in self.events.iter().enumerate() {
            let entrants = event.placings.len();
            for (p, &player) in event.placings.iter().zip(&who[e]) {
                let line = &mut lines[player];
                line.events += 1;
                line.places[e] = Some(p.place);
                earned[player].push(self.points.of(p.place, entrants));
                if latest[player].is_none_or(|t| event.exported >= t) {
                    latest[player] = Some(event.exported);
                    line.name = p.name.clone();
                    line.club = p.club.clone();
                }
                if p.id.is_some() {
                    line.id = p.id.clone();
                }
            }
        }
        for (line, mut points) in lines.iter_mut().zip(earned) {
            points.sort_unstable_by(|a, b| b.cmp(a));
            let k = self
                .best
                .map_or(points.len(), |k| (k as usize).min(points.len()));
            line.counted = k;
            line.points = points[..k].iter().sum();
        }
        // Countback: how many firsts, seconds, … (more is better).
        let countback = |line: &SeasonStanding| {
            let most = line.places.iter().flatten().copied().max().unwrap_or(0);
            let mut counts = vec![0usize; most];
            for &p in line.places.iter().flatten() {
                if let Some(c) = p.checked_sub(1).and_then(|i| counts.get_mut(i)) {
                    *c += 1;
                }
            }
            counts
        };
        let key = |line: &SeasonStanding| (std::cmp::Reverse(line.points), countback(line));
        lines.sort_by(|a, b| {
            a.points
                .cmp(&b.points)
                .reverse()
                .then_with(|| countback(b).cmp(&countback(a)))
                .then_with(|| folded(&a.name).cmp(&folded(&b.name)))
        });
        for i in 0..lines.len() {
            lines[i].rank = match i.checked_sub(1) {
                Some(j) if key(&lines[j]) == key(&lines[i]) => lines[j].rank,
                _ => i + 1,
            };
        }
        lines
    }
}
