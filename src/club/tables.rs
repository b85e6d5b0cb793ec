//! The current round's tables at play: each table's [`LiveTable`] (its seats' phones, clock,
//! confirmed games, the game being settled), each table's key for this round, and the round
//! clock — what the owner keeps beside the event, in `events/<id>.live.json`.
//!
//! - **Keys are per round.** When a round is first seen each of its tables gets a random key;
//!   its link and QR code carry it, and a page's request must name it. A page left open from an
//!   earlier round names an old key: it is told to scan its new table, and shown nothing of the
//!   new round. The keys are kept with the tables, so the QR codes stay the same across a
//!   restart, whoever hosts.
//! - **A table's change is tried on a copy** ([`Tables::try_act`]); the owner keeps it only
//!   once its saves are queued, so a refused or failed command keeps nothing half-done.

use std::collections::BTreeMap;
use std::time::Duration;

use chrono::{DateTime, Utc};
use subtle::ConstantTimeEq;

use super::command::ClubRefusal;
use crate::event::live::{Actor, LiveTable, TableCommand, TableDone, TablesAtPlay};
use crate::event::{Command, Event};
use crate::server::Secret;

/// The tables of the current round at play; see the [module docs](self).
#[derive(Debug, Default)]
pub(super) struct Tables {
    live: BTreeMap<u32, LiveTable>,
    kept: TablesAtPlay,
    /// The round clock's length in minutes, while the tables are hosted with one.
    round_minutes: Option<u32>,
}

/// A table's change, tried on a copy.
pub(super) struct Tried {
    /// The table.
    pub table: u32,
    /// The table after it.
    pub next: LiveTable,
    /// What it did.
    pub done: TableDone,
    /// The round's games, when this confirmed the last one: the event's result.
    pub result: Option<Command>,
}

impl Tables {
    /// The tables as they were kept (a file of another round is not taken).
    pub(super) fn restored(kept: Option<TablesAtPlay>) -> Tables {
        Tables {
            kept: kept.unwrap_or_default(),
            ..Tables::default()
        }
    }

    /// What is kept across a restart.
    pub(super) fn kept(&self) -> &TablesAtPlay {
        &self.kept
    }

    /// The tables at play, by number.
    pub(super) fn live(&self) -> &BTreeMap<u32, LiveTable> {
        &self.live
    }

    /// A table's key this round.
    pub(super) fn key(&self, table: u32) -> Option<&str> {
        self.kept.keys.get(&table).map(String::as_str)
    }

    /// Sets the round clock's length (hosting with one); says whether what is kept changed.
    pub(super) fn set_round_minutes(&mut self, minutes: Option<u32>, now: DateTime<Utc>) -> bool {
        self.round_minutes = minutes;
        if minutes.is_some() && self.kept.round_started.is_none() && self.kept.round > 0 {
            self.kept.round_started = Some(now);
            return true;
        }
        false
    }

    /// When the round clock runs out (wall clock), if there is one.
    pub(super) fn round_ends(&self) -> Option<DateTime<Utc>> {
        let minutes = self.round_minutes?;
        Some(self.kept.round_started? + chrono::Duration::minutes(i64::from(minutes)))
    }

    /// Makes the tables at play those of the event's current round: a table whose players are
    /// the same keeps its clock, seats and games; a new round starts from what was kept of it,
    /// with new keys. Says whether what is kept changed (new keys, a new round).
    pub(super) fn sync(&mut self, event: &Event, now: DateTime<Utc>) -> bool {
        let Some(round) = event.rounds().last() else {
            self.live.clear();
            return false;
        };
        let mut changed = false;
        if self.kept.round != round.number {
            self.kept = TablesAtPlay {
                round: round.number,
                ..TablesAtPlay::default()
            };
            changed = true;
        }
        if self.round_minutes.is_some() && self.kept.round_started.is_none() {
            self.kept.round_started = Some(now);
            changed = true;
        }
        let games = event.round_games(round);
        let mut live = BTreeMap::new();
        for table in &round.tables {
            let names = event.seat_names(table);
            if let Some(kept) = self.live.remove(&table.number)
                && kept.players().names() == names.as_slice()
            {
                live.insert(table.number, kept);
            } else if let Ok(fresh) =
                LiveTable::new(table.number, names, event.table_rules(table), games)
            {
                let kept = self
                    .kept
                    .tables
                    .get(&table.number)
                    .cloned()
                    .unwrap_or_default();
                live.insert(table.number, fresh.restored(kept));
            }
            if !self.kept.keys.contains_key(&table.number)
                && let Ok(secret) = Secret::random()
            {
                let key: String = secret.as_str().chars().take(16).collect();
                self.kept.keys.insert(table.number, key);
                changed = true;
            }
        }
        self.live = live;
        changed
    }

    /// Tries `command` from `actor` on table `table` of `event`'s current round at `now`
    /// (a page names the table's key; the organiser needs none): the table after it, or why
    /// not. Nothing is kept yet.
    pub(super) fn try_act(
        &self,
        event: &Event,
        table: u32,
        key: Option<&str>,
        actor: &Actor,
        command: TableCommand,
        now: Duration,
    ) -> Result<Tried, ClubRefusal> {
        let live = self
            .live
            .get(&table)
            .ok_or(ClubRefusal::NoSuchTable(table))?;
        if *actor != Actor::Organiser {
            let expected = self.key(table).ok_or(ClubRefusal::WrongKey)?;
            let given = key.unwrap_or_default();
            if !bool::from(expected.as_bytes().ct_eq(given.as_bytes())) {
                return Err(ClubRefusal::WrongKey);
            }
        }
        let recorded = event
            .rounds()
            .last()
            .and_then(|r| r.tables.iter().find(|t| t.number == table))
            .is_some_and(|t| t.is_finished());
        if recorded {
            return Err(ClubRefusal::Recorded(table));
        }
        let mut next = live.clone();
        let done = next
            .apply(actor, command, now)
            .map_err(ClubRefusal::Table)?;
        let result = match &done {
            TableDone::GameConfirmed {
                complete: Some(games),
                ..
            } => Some(Command::Result {
                round: Some(self.kept.round),
                table,
                players: next.players().names().to_vec(),
                games: games.clone(),
                correct: false,
            }),
            _ => None,
        };
        Ok(Tried {
            table,
            next,
            done,
            result,
        })
    }

    /// Keeps a tried change; says whether what is kept across a restart changed.
    pub(super) fn keep(&mut self, tried: Tried) -> bool {
        let changed = tried.done.changes_games();
        if changed {
            self.kept
                .tables
                .insert(tried.table, tried.next.kept().clone());
        }
        self.live.insert(tried.table, tried.next);
        changed
    }
}
