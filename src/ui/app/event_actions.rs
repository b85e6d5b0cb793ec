//! Carrying out the Event view's requests: each is a command to the club night's owner
//! ([`ClubShared`]), which applies it and has its writer thread write the files; a refusal is
//! worded in the table's language and shown by the Event view (the cells a refused result
//! names are marked), what was done as a note above it. The window starts no server: hosting
//! the tables is a command too.

use std::sync::Arc;

use super::{App, Refused, View};
use crate::club::{ClubCommand, ClubRefusal, ClubShared, Did, LinkPick, MakeBytes, SeasonAsk};
use crate::evening::{Command, Settings};
use crate::event::Outcome;
use crate::event::live::{Actor, TableCommand};
use crate::i18n::event::{cli as cli_words, window as words};
use crate::lang::Language;
use crate::ui::event_view::{EventRequest, Marked};
use crate::ui::season_view::SeasonRequest;

/// What the Event view's last request did: typed until drawn, so it reads in the table's
/// language of the moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum EventNote {
    /// An event was made (its id).
    Created(String),
    /// A round was seated.
    Seated { round: u32, repeats: usize },
    /// A result was recorded.
    Recorded {
        round: u32,
        table: u32,
        corrected: bool,
        round_complete: bool,
    },
}

impl EventNote {
    /// The note in `lang`.
    pub(super) fn worded(&self, lang: Language) -> String {
        match self {
            EventNote::Created(id) => words::created(lang, id),
            EventNote::Seated { round, repeats } => words::seated(lang, *round, *repeats),
            EventNote::Recorded {
                round,
                table,
                corrected,
                round_complete,
            } => {
                let text = cli_words::recorded(lang, *round, *table, *corrected);
                if *round_complete {
                    format!("{text}; {}", cli_words::ROUND_COMPLETE.get(lang))
                } else {
                    text
                }
            }
        }
    }
}

/// The cells a refused result of `round`, table `table` names.
fn marked(refusal: &ClubRefusal, round: u32, table: u32) -> Option<Marked> {
    let at = (round, table);
    match refusal {
        // Row r of the CSV made from the cells is game r − 1 (the header is row 1); player i
        // is column i + 2.
        ClubRefusal::Cells(e) => Some(Marked {
            at,
            games: e.row.and_then(|r| r.checked_sub(2)).into_iter().collect(),
            seats: e.columns.iter().filter_map(|c| c.checked_sub(2)).collect(),
        }),
        ClubRefusal::Event(crate::event::Refusal::Game { game, .. }) => Some(Marked {
            at,
            games: game.checked_sub(1).into_iter().collect(),
            seats: Vec::new(),
        }),
        _ => None,
    }
}

impl App {
    /// Where the tables' host listens when asked (tests use `127.0.0.1:0`).
    pub fn set_tables_bind(&mut self, bind: std::net::SocketAddr) {
        self.tables_bind = Some(bind);
    }

    /// Where the tables' host listens while the window hosts them.
    pub fn tables_host_addr(&self) -> Option<std::net::SocketAddr> {
        self.club.lock().hosting_addr()
    }

    /// The club night's owner (tests wait on its writes).
    pub fn club(&self) -> &ClubShared {
        &self.club
    }

    /// The cells the Event view's last refused result names (marked on its grid).
    pub fn event_marked(&self) -> Option<&Marked> {
        self.event_marked.as_ref()
    }

    /// Applies one request of the Event view.
    pub(super) fn event_request(&mut self, request: EventRequest) {
        let lang = self.language();
        // Reading the list again, or setting the round clock, says nothing new: the last note
        // stays (and the view does not jump under the pointer).
        let quiet = matches!(
            request,
            EventRequest::Refresh
                | EventRequest::RoundMinutes(_)
                | EventRequest::DismissNotices
                | EventRequest::Season(SeasonRequest::List)
        );
        let at = match &request {
            EventRequest::Result { round, table, .. } => Some((*round, *table)),
            _ => None,
        };
        let command = match request {
            EventRequest::Create { setup, players } => ClubCommand::Create {
                setup,
                players,
                open: true,
            },
            EventRequest::Refresh => ClubCommand::Refresh,
            EventRequest::Open(id) => ClubCommand::Open(id),
            EventRequest::Host(true) => self.host_command(),
            EventRequest::Host(false) => ClubCommand::StopHosting,
            EventRequest::RoundMinutes(minutes) => {
                let settings = Settings {
                    event_round_minutes: minutes,
                    ..self.settings().clone()
                };
                self.command(View::Event, Command::Settings(Box::new(settings)));
                return;
            }
            EventRequest::Close => ClubCommand::Close,
            EventRequest::Seat => ClubCommand::Event(crate::event::Command::SeatRound),
            EventRequest::Result {
                round,
                table,
                cells,
                correct,
            } => ClubCommand::EnterResult {
                round,
                table,
                cells,
                correct,
            },
            EventRequest::Release(round) => {
                ClubCommand::Event(crate::event::Command::Release { round })
            }
            EventRequest::FreeSeat(table, seat) => ClubCommand::Table {
                table,
                key: None,
                actor: Actor::Organiser,
                command: TableCommand::Free { seat },
            },
            EventRequest::SharedTurns(table, on) => ClubCommand::Table {
                table,
                key: None,
                actor: Actor::Organiser,
                command: TableCommand::Shared(on),
            },
            EventRequest::DismissNotices => {
                self.club.lock().dismiss_notices();
                return;
            }
            EventRequest::SeatFinal {
                top,
                games,
                seeding,
                carry,
            } => ClubCommand::Event(crate::event::Command::SeatFinal {
                top,
                games,
                seeding: Some(seeding),
                carry: Some(carry),
            }),
            EventRequest::ExportBundle => ClubCommand::Season(SeasonAsk::Export {
                ask: Some(Arc::clone(&self.save_dialog)),
            }),
            EventRequest::Season(request) => ClubCommand::Season(match request {
                SeasonRequest::List => SeasonAsk::List,
                SeasonRequest::New { name, points, best } => SeasonAsk::New { name, points, best },
                SeasonRequest::Import { season, files } => SeasonAsk::Import { season, files },
                SeasonRequest::Show(season) => SeasonAsk::Show(season),
            }),
            EventRequest::SeatingCsv(round) => return self.export(lang, round, Export::SeatingCsv),
            EventRequest::SeatingPicture(round) => {
                return self.export(lang, round, Export::SeatingPicture);
            }
            EventRequest::StandingsPicture(round) => {
                return self.export(lang, round, Export::StandingsPicture);
            }
            EventRequest::StandingsCsv(round) => {
                return self.export(lang, round, Export::StandingsCsv);
            }
        };
        let refresh = matches!(command, ClubCommand::Close);
        let done = self.club.apply(command);
        if refresh {
            let _ = self.club.apply(ClubCommand::Refresh);
        }
        match done {
            Ok(done) => {
                if self.refused.as_ref().is_some_and(|r| r.view == View::Event) {
                    self.refused = None;
                }
                self.event_marked = None;
                if !quiet {
                    self.event_note = match done.did {
                        Did::Created(id) => Some(EventNote::Created(id.to_string())),
                        Did::Event(Outcome::Seated { round, repeats }) => {
                            Some(EventNote::Seated { round, repeats })
                        }
                        Did::Event(Outcome::Recorded {
                            round,
                            table,
                            corrected,
                            round_complete,
                        }) => Some(EventNote::Recorded {
                            round,
                            table,
                            corrected,
                            round_complete,
                        }),
                        _ => None,
                    };
                }
            }
            Err(e) => {
                self.event_note = None;
                self.event_marked = at.and_then(|(round, table)| marked(&e, round, table));
                self.refused = Some(Refused {
                    view: View::Event,
                    why: crate::club::words::refusal(lang, &e, &[]),
                });
            }
        }
    }

    /// Hosting the open event's tables: on the tests' address, or every interface (IPv6 and
    /// IPv4) on the settings' port, the links naming the address phones reach (the phones'
    /// network chosen in Settings, when it is one of them; listed the way the phones' link
    /// lists them).
    fn host_command(&self) -> ClubCommand {
        let settings = self.settings();
        let bind = self
            .tables_bind
            .unwrap_or_else(|| crate::evening::table_bind(settings.event_port));
        let link = if bind.ip().is_unspecified() {
            let evening = self.evening();
            let phones = evening.phones();
            LinkPick::Reachable {
                list: phones.lister(),
                prefer: phones.chosen().map(|a| a.ip),
            }
        } else {
            LinkPick::Address(bind.ip())
        };
        ClubCommand::Host {
            bind,
            link,
            round_minutes: Some(settings.event_round_minutes).filter(|&m| m > 0),
        }
    }

    /// A round's seating or the standings through it, as CSV or a picture drawn off the window
    /// ([`crate::ui::event_card`]), written by the owner's desk as the other exports are.
    fn export(&mut self, lang: Language, round: u32, what: Export) {
        let club = self.club.lock();
        let Some((id, event)) = club.open_event() else {
            return;
        };
        let (id, event) = (id.clone(), Arc::clone(event));
        if !event.rounds().iter().any(|r| r.number == round) {
            return;
        }
        let rules = crate::club::words::rules(lang, &event.setup().rules);
        let dialog = Some(Arc::clone(&self.save_dialog));
        match what {
            Export::SeatingCsv => {
                let labels = crate::i18n::event::seating_labels(lang);
                if let Some(text) =
                    crate::event::export::seating_csv(&event, round, &labels, &rules)
                {
                    let name = format!("{id}-round{round}-seating.csv");
                    club.export(&name, text.into_bytes(), dialog);
                }
            }
            Export::StandingsCsv => {
                let labels = crate::i18n::event::standings_labels(lang);
                let text = crate::event::export::standings_csv(
                    &event.standings_through(round),
                    &labels,
                    &rules,
                );
                let name = format!("{id}-round{round}-standings.csv");
                club.export(&name, text.into_bytes(), dialog);
            }
            Export::SeatingPicture | Export::StandingsPicture => {
                let seating = matches!(what, Export::SeatingPicture);
                let kind = if seating { "seating" } else { "standings" };
                let name = format!("{id}-round{round}-{kind}.png");
                let made = chrono::Utc::now();
                let make: MakeBytes = Box::new(move || {
                    let card = if seating {
                        crate::ui::event_card::seating(&event, round, lang, made)
                    } else {
                        Some(crate::ui::event_card::standings(&event, round, lang, made))
                    };
                    let card = card.ok_or_else(|| std::io::Error::other("no such round"))?;
                    crate::ui::png_bytes(&card.image)
                });
                club.export_made(&name, make, dialog);
            }
        }
    }
}

/// What an export makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Export {
    SeatingCsv,
    SeatingPicture,
    StandingsCsv,
    StandingsPicture,
}
