//! A club night for the tests of its owner, its pages and its bench (`benches/club.rs`
//! includes this file by path): an event made in a temporary data folder through the owner
//! ([`ClubShared`]), hosted on loopback, and a phone of a table as its page talks to the host
//! (the table's key from the TV page's link, a device token from its first claim).
#![allow(dead_code)]

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::time::Duration;

use rummikub_companion::club::{ClubCommand, ClubOptions, ClubShared, Did, LinkPick};
use rummikub_companion::event::{Command, Event, EventSetup};
use rummikub_companion::lang::Language;
use rummikub_companion::score::{Game, Hand};
use rummikub_companion::store::{EventId, HolderKind, Store};
use serde_json::{Value, json};

use super::phones::{get, post};

/// A club night in a data folder of its own, its owner holding it.
pub struct Night {
    dir: tempfile::TempDir,
    id: EventId,
    club: ClubShared,
}

impl Night {
    /// Eight players, one game a round, round 1 seated (two tables of 4).
    pub fn new() -> Night {
        let names = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"].map(String::from);
        Night::seated("Club <night> & co", 7, 1, names)
    }

    /// `players` players (names of every length, a few Korean), four games a round, round 1
    /// seated.
    pub fn of(players: usize) -> Night {
        Night::of_games(players, 4)
    }

    /// `players` players as [`Night::of`], `games` a round.
    pub fn of_games(players: usize, games: u32) -> Night {
        const NAMES: [&str; 12] = [
            "Ann",
            "Bartholomew",
            "김민지",
            "Dmitri",
            "Eun-ji Park",
            "Fay",
            "Guadalupe",
            "이서준",
            "Hal",
            "Ingrid",
            "Jae-won",
            "Kofi",
        ];
        let names = (0..players).map(|i| match i / NAMES.len() {
            0 => NAMES[i].to_string(),
            n => format!("{} {}", NAMES[i % NAMES.len()], n + 1),
        });
        Night::seated("Thursday club night", 3, games, names)
    }

    /// An event `name` of `players` (seating seed `seed`, `games` a round) with round 1
    /// seated, made and opened by an owner (as `event serve` holds it) in a new data folder.
    pub fn seated(
        name: &str,
        seed: u64,
        games: u32,
        players: impl IntoIterator<Item = String>,
    ) -> Night {
        let dir = tempfile::tempdir().expect("temp dir");
        let club = owner(dir.path(), HolderKind::Serve);
        let mut setup = EventSetup::new(name, seed);
        setup.games = games;
        let players: String = players.into_iter().map(|n| n + "\n").collect();
        let made = club
            .apply(ClubCommand::Create {
                setup: Box::new(setup),
                players,
                open: true,
            })
            .expect("made");
        let Did::Created(id) = made.did else {
            panic!("made: {:?}", made.did)
        };
        club.apply(ClubCommand::Event(Command::SeatRound))
            .expect("seated");
        assert!(club.flush(Duration::from_secs(10)), "written");
        Night { dir, id, club }
    }

    /// The data folder.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The event's id.
    pub fn id(&self) -> &EventId {
        &self.id
    }

    /// The owner.
    pub fn club(&self) -> &ClubShared {
        &self.club
    }

    /// The event as its owner holds it.
    pub fn event(&self) -> Event {
        let club = self.club.lock();
        let (_, event) = club.open_event().expect("open");
        Event::clone(event)
    }

    /// The event as it is on disk (every write flushed first).
    pub fn on_disk(&self) -> Event {
        assert!(self.club.flush(Duration::from_secs(10)), "written");
        Store::open_reader(self.dir.path())
            .load_event(&self.id)
            .expect("loads")
            .event
    }

    /// Records table `table`'s games of the current round (its first seat goes out), as the
    /// organiser enters them.
    pub fn result(&self, table: u32) {
        let event = self.event();
        let round = event.rounds().last().expect("a round");
        let t = round
            .tables
            .iter()
            .find(|t| t.number == table)
            .expect("the table");
        let players = event.seat_names(t);
        let values: Vec<u32> = (0..players.len() as u32).map(|i| i * 10).collect();
        let games = (0..event.round_games(round))
            .map(|_| Game::new(values.iter().map(|&v| Hand::of_value(v)).collect()))
            .collect();
        self.club
            .apply(ClubCommand::Event(Command::Result {
                round: None,
                table,
                players,
                games,
                correct: false,
            }))
            .expect("a valid result");
    }

    /// Seats the next round.
    pub fn seat(&self) {
        self.club
            .apply(ClubCommand::Event(Command::SeatRound))
            .expect("seated");
    }

    /// Hosts the tables on loopback (the TV page's language `lang`, a 90-minute round clock
    /// when `clock`); the address.
    pub fn host(&self, lang: Language, clock: bool) -> SocketAddr {
        self.club.lock().set_language(lang);
        self.club
            .apply(ClubCommand::Host {
                bind: (Ipv4Addr::LOCALHOST, 0).into(),
                link: LinkPick::Address(IpAddr::V4(Ipv4Addr::LOCALHOST)),
                round_minutes: clock.then_some(90),
            })
            .expect("hosts");
        self.club.lock().hosting_addr().expect("hosting")
    }
}

/// An owner of data folder `dir` of kind `kind` (English).
pub fn owner(dir: &Path, kind: HolderKind) -> ClubShared {
    ClubShared::new(ClubOptions::new(dir, kind, Language::English))
}

/// Table `t`'s key, read from its link on the TV page (as a phone gets it from the QR code).
pub fn key(addr: SocketAddr, t: u32) -> String {
    let page = get(addr, "/tv").body;
    let marker = format!("/table/{t}?key=");
    let at = page
        .find(&marker)
        .expect("the TV page links the table with its key")
        + marker.len();
    page[at..]
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect()
}

/// A phone at a table: its page's key, and the device token the host gave it.
#[derive(Clone, Debug)]
pub struct Phone {
    pub addr: SocketAddr,
    pub table: u32,
    pub key: String,
    pub device: Option<String>,
    pub lang: &'static str,
}

impl Phone {
    /// A phone that scanned table `table`'s code on the TV.
    pub fn at(addr: SocketAddr, table: u32) -> Phone {
        Phone {
            addr,
            table,
            key: key(addr, table),
            device: None,
            lang: "en",
        }
    }

    /// Asks the table `body` (`{"action": …}`); (status, answer). A device token the host
    /// gives is kept.
    pub fn act(&mut self, body: Value) -> (u16, Value) {
        let mut body = body;
        body["key"] = self.key.clone().into();
        if let Some(device) = &self.device {
            body["device"] = device.clone().into();
        }
        let reply = post(
            self.addr,
            &format!("/table/{}/act?lang={}", self.table, self.lang),
            &body.to_string(),
        );
        let answer = reply.json();
        if let Some(device) = answer["device"].as_str() {
            self.device = Some(device.to_owned());
        }
        (reply.status, answer)
    }

    /// Claims seat `seat` (0-based).
    pub fn claim(&mut self, seat: usize) -> (u16, Value) {
        self.act(json!({"action": "claim", "seat": seat}))
    }

    /// The table's part as the TV state has it.
    pub fn table(&self) -> Value {
        let state: Value = get(self.addr, "/tv/state").json();
        state["tables"]
            .as_array()
            .and_then(|t| t.iter().find(|x| x["table"] == self.table).cloned())
            .unwrap_or(Value::Null)
    }

    /// Ends the turn the table shows.
    pub fn end_turn(&mut self) -> (u16, Value) {
        let turn = self.table()["turn_id"].clone();
        self.act(json!({"action": "end_turn", "turn": turn}))
    }

    /// Enters this phone's rack.
    pub fn rack(&mut self, rack: &str) -> (u16, Value) {
        self.act(json!({"action": "rack", "rack": rack}))
    }

    /// Confirms the game being settled as the table shows it now.
    pub fn confirm(&mut self) -> (u16, Value) {
        let table = self.table();
        let settling = &table["settling"];
        self.act(json!({
            "action": "confirm",
            "game": settling["game"],
            "digest": settling["digest"],
        }))
    }
}

/// The four phones of table `table`, each holding its seat (in seat order).
pub fn seated_phones(addr: SocketAddr, table: u32, seats: usize) -> Vec<Phone> {
    (0..seats)
        .map(|seat| {
            let mut phone = Phone::at(addr, table);
            let (status, answer) = phone.claim(seat);
            assert_eq!(status, 200, "seat {seat}: {answer}");
            phone
        })
        .collect()
}
