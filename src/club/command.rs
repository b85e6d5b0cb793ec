//! What can be asked of the club night's owner ([`ClubCommand`]), what it did ([`ClubDone`])
//! and why it would not ([`ClubRefusal`], worded by [`super::words`]).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::event::live::{Actor, TableCommand, TableDone, TableRefusal};
use crate::event::{Command, EventSetup, Outcome, Refusal};
use crate::score::table::TableError;
use crate::store::saver::Ticket;
use crate::store::{EventId, Holder, StoreError};

/// Everything the window, `event serve`, the table pages and the command line ask of the club
/// night; each goes through [`super::Club::apply`].
#[derive(Clone, Debug)]
pub enum ClubCommand {
    /// Makes an event from `setup` and the players text (one a line, `name` or `name,club`);
    /// with `open` it becomes the open event.
    Create {
        /// The setup.
        setup: Box<EventSetup>,
        /// The players, one a line.
        players: String,
        /// Open it.
        open: bool,
    },
    /// Opens an event of the data folder (taking the folder's club lock).
    Open(EventId),
    /// Closes the open event (and stops hosting it; the lock is let go).
    Close,
    /// Reads the saved events' list again (on a thread; the window repaints when it is in).
    Refresh,
    /// An event command for the open event (a player, a seating, a result, a release).
    Event(Command),
    /// A table's games as typed in the window: `cells[g][c]` is game g's cell for seat c, in
    /// the `score` format (`0`, `25`, `R5 K7 J`, `0!`, `12*`).
    EnterResult {
        /// The round.
        round: u32,
        /// The table.
        table: u32,
        /// The cells.
        cells: Vec<Vec<String>>,
        /// A correction of a result given before.
        correct: bool,
    },
    /// A table page's request (its key names the table of the current round) or the
    /// organiser's.
    Table {
        /// The table.
        table: u32,
        /// The key of the table's page (the organiser needs none).
        key: Option<String>,
        /// Who asks.
        actor: Actor,
        /// What.
        command: TableCommand,
    },
    /// Hosts the open event's tables: the TV page and the tables' pages on `bind`, their links
    /// naming `link` (the address phones reach), with a round clock of `round_minutes`.
    Host {
        /// Where to listen.
        bind: SocketAddr,
        /// The address the links name, or how to pick it.
        link: LinkPick,
        /// The round clock, if any.
        round_minutes: Option<u32>,
    },
    /// Stops hosting the tables.
    StopHosting,
    /// A season's work (the window's Season view): done on a thread of the owner's, its outcome
    /// in [`super::Club::season_report`].
    Season(SeasonAsk),
}

/// The address the tables' links (the TV's QR codes) name.
#[derive(Clone, Debug)]
pub enum LinkPick {
    /// This address (a host bound to one address names it; tests name loopback).
    Address(IpAddr),
    /// The address phones reach, picked once the host listens (see
    /// [`crate::server::LinkChoice`]): `prefer` while it is offered (the phones' network
    /// chosen in Settings), else the best. With none, hosting is refused
    /// ([`ClubRefusal::NoReachableAddress`]): never a loopback link offered as the Wi-Fi one.
    Reachable {
        /// Lists this machine's addresses for a bound socket (tests list their own).
        list: crate::server::AddressLister,
        /// The address to name when it is among them.
        prefer: Option<IpAddr>,
    },
}

/// What the Season view asks.
#[derive(Clone)]
pub enum SeasonAsk {
    /// Read the seasons (and this folder's venue) again.
    List,
    /// Make a season: its name, the points (`entrants` or a list by place), the best K.
    New {
        /// The name.
        name: String,
        /// `entrants`, or `25,18,15,…`.
        points: String,
        /// Count each player's best K events.
        best: Option<u32>,
    },
    /// Import bundles into a season, all or nothing.
    Import {
        /// The season.
        season: crate::store::SeasonId,
        /// The bundle files.
        files: Vec<std::path::PathBuf>,
    },
    /// Seal the open event with this folder's venue key, written where the dialog says (or the
    /// exports folder).
    Export {
        /// The save dialog, if any.
        ask: Option<super::AskPath>,
    },
    /// Show a season's standings on the TV (or none).
    Show(Option<crate::store::SeasonId>),
}

impl std::fmt::Debug for SeasonAsk {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SeasonAsk::List => f.write_str("List"),
            SeasonAsk::New { name, .. } => write!(f, "New({name})"),
            SeasonAsk::Import { season, files } => write!(f, "Import({season}, {files:?})"),
            SeasonAsk::Export { .. } => f.write_str("Export"),
            SeasonAsk::Show(id) => write!(f, "Show({id:?})"),
        }
    }
}

/// What a command did.
#[derive(Clone, Debug)]
pub struct ClubDone {
    /// What happened.
    pub did: Did,
    /// The save that makes it last: on disk once the owner's writer reaches it (pages and the
    /// command line wait for it).
    pub ticket: Option<Ticket>,
}

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Did {
    /// An event was made.
    Created(EventId),
    /// An event was opened.
    Opened(EventId),
    /// The open event was closed.
    Closed,
    /// Nothing to tell (a listing asked for).
    Nothing,
    /// The event did this.
    Event(Outcome),
    /// A table did this; `device` is the token a page that had none was given.
    Table {
        /// What the table did.
        done: TableDone,
        /// A new device token for the page.
        device: Option<String>,
    },
    /// The tables are hosted here.
    Hosting {
        /// The TV page's link.
        url: String,
    },
    /// Hosting stopped.
    NotHosting,
}

/// Why the owner did not do what was asked (nothing changed).
#[derive(Debug)]
pub enum ClubRefusal {
    /// There is no data folder.
    NoDataFolder,
    /// Another process owns the folder's club nights (a host, or a window with an event open).
    Held(Option<Holder>),
    /// No event is open.
    NotOpen,
    /// The players text names nobody.
    NoPlayers,
    /// A line of the players text is refused.
    PlayersLine {
        /// 1-based line.
        line: usize,
        /// Why.
        why: Refusal,
    },
    /// The event refused.
    Event(Refusal),
    /// The games typed do not read as a table's games; the cells named are marked.
    Cells(TableError),
    /// The data folder could not be read or written.
    Store(Arc<StoreError>),
    /// Hosting on every interface while no phone can reach this machine (no private IPv4
    /// address, no unique-local IPv6 one the host listens on).
    NoReachableAddress,
    /// The tables' host could not listen.
    Listen {
        /// Where it tried.
        address: String,
        /// The system's reason.
        error: String,
    },
    /// The current round has no such table (or the event no round yet).
    NoSuchTable(u32),
    /// The page's key is not the table's key this round (an old round's page, or a guess).
    WrongKey,
    /// The table's result is in the event already.
    Recorded(u32),
    /// The table refused (a seat taken, not your turn, racks missing, …).
    Table(TableRefusal),
    /// The change could not be saved; nothing of it was kept.
    NotSaved(Arc<StoreError>),
}

impl From<Refusal> for ClubRefusal {
    fn from(r: Refusal) -> ClubRefusal {
        ClubRefusal::Event(r)
    }
}

impl From<StoreError> for ClubRefusal {
    fn from(e: StoreError) -> ClubRefusal {
        ClubRefusal::Store(Arc::new(e))
    }
}

impl std::fmt::Display for ClubRefusal {
    /// English; the window, the pages and the command line word it in their language
    /// ([`super::words::refusal`]).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&super::words::refusal(
            crate::lang::Language::English,
            self,
            &[],
        ))
    }
}

impl std::error::Error for ClubRefusal {}

/// What the command line hands a running host (over its loopback control port): a command of
/// its own, worded back in `lang`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Relayed {
    /// The command line's language.
    pub lang: crate::lang::Language,
    /// The event (the host's open one when `None`).
    pub event: Option<EventId>,
    /// What to do.
    pub ask: RelayedAsk,
}

/// A command line command a host carries out.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RelayedAsk {
    /// `event new`.
    Create {
        /// The setup.
        setup: Box<EventSetup>,
        /// The players text.
        players: String,
    },
    /// `event seat`, `event result`, … .
    Event(Command),
    /// `event free-seat`.
    FreeSeat {
        /// The table.
        table: u32,
        /// The seat (0-based).
        seat: usize,
    },
}

/// A host's answer to a relayed command.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RelayAnswer {
    /// Done (then `event`), or refused (then `exit`, `kind`, `message`).
    pub ok: bool,
    /// The event's id.
    #[serde(default)]
    pub id: Option<EventId>,
    /// The event as it is after the command.
    #[serde(default)]
    pub event: Option<crate::event::Event>,
    /// What the event did.
    #[serde(default)]
    pub outcome: Option<Outcome>,
    /// The exit code of a refusal (1 a clear no, 2 bad input).
    #[serde(default)]
    pub exit: i32,
    /// The kind of refusal (`refused`, `event`, `store`).
    #[serde(default)]
    pub kind: String,
    /// The refusal, worded in the command line's language.
    #[serde(default)]
    pub message: String,
}
