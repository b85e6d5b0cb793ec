//! Carrying out the Event view's requests: each goes to the [`EventDesk`], which applies it to
//! the open event and has its thread write the file; a refusal is worded in the table's
//! language and shown by the Event view, what was done as a note above it.

use std::sync::Arc;

use super::{App, Refused, View};
use crate::evening::event_desk::{DeskError, EventDesk};
use crate::evening::{Command, Settings};
use crate::event::Outcome;
use crate::i18n::event::{cli as cli_words, window as words};
use crate::ui::event_view::EventRequest;

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
    pub(super) fn worded(&self, lang: crate::lang::Language) -> String {
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

/// The open event's tables hosted from the window: the server (the TV page, each table's
/// phones) and the TV page's address. Dropping it stops the server.
pub(super) struct TablesHost {
    server: crate::server::tv::TvServer,
    pub(super) url: String,
}

impl App {
    /// Where the tables' host listens when asked (tests use `127.0.0.1:0`).
    pub fn set_tables_bind(&mut self, bind: std::net::SocketAddr) {
        self.tables_bind = Some(bind);
    }

    /// Where the tables' host listens while the window hosts them.
    pub fn tables_host_addr(&self) -> Option<std::net::SocketAddr> {
        self.tables_host.as_ref().map(|h| h.server.local_addr())
    }

    /// Hosts the open event's tables: a [`ClubHost`](crate::server::club::ClubHost) recording
    /// through the desk ([`EventDesk::ledger`]), so the desk stays the event's one owner.
    fn host_tables(&mut self) -> Result<(), DeskError> {
        use crate::server::tv::{TV_MAX_CONNECTIONS, TvError, TvOptions, TvServer};
        self.tables_host = None;
        let ledger = self.desk.ledger().ok_or(DeskError::NotOpen)?;
        let (id, event) = self.desk.open().ok_or(DeskError::NotOpen)?;
        let dir = self
            .desk
            .data_dir()
            .ok_or(DeskError::NoDataFolder)?
            .to_path_buf();
        let round_minutes = Some(self.settings().event_round_minutes).filter(|&m| m > 0);
        let host = crate::server::club::ClubHost::with_ledger(
            Box::new(ledger),
            crate::event::Event::clone(&event),
            &dir,
            id.clone(),
            round_minutes,
        );
        let bind = self.tables_bind.unwrap_or_else(|| {
            (std::net::Ipv4Addr::UNSPECIFIED, self.settings().event_port).into()
        });
        let link_host = if bind.ip().is_unspecified() {
            crate::server::link_addresses(bind)
                .first()
                .map_or(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), |a| {
                    a.ip
                })
        } else {
            bind.ip()
        };
        let options = TvOptions {
            bind,
            data_dir: dir,
            event: id,
            lang: self.language(),
            link_host,
            round_minutes,
            max_connections: TV_MAX_CONNECTIONS,
        };
        let server = TvServer::start_with(options, host).map_err(|e| match e {
            TvError::Store(e) => DeskError::Store(e),
            TvError::Io(e) => DeskError::Listen {
                address: bind.to_string(),
                error: e.to_string(),
            },
        })?;
        let url = server.url();
        self.tables_host = Some(TablesHost { server, url });
        Ok(())
    }

    fn stop_hosting(&mut self) -> &mut App {
        self.tables_host = None;
        self
    }

    /// The club night's owner (tests wait on its writes).
    pub fn event_desk(&self) -> &EventDesk {
        &self.desk
    }

    /// Applies one request of the Event view.
    pub(super) fn event_request(&mut self, request: EventRequest) {
        let lang = self.language();
        let now = chrono::Utc::now();
        // Reading the list again (the view asks when first shown), showing the standings or
        // setting the round clock says nothing new: the last note stays (and the view does not
        // jump under the pointer).
        let quiet = matches!(
            request,
            EventRequest::Refresh | EventRequest::Release(_) | EventRequest::RoundMinutes(_)
        );
        let done: Result<Option<EventNote>, DeskError> = match request {
            EventRequest::Create { setup, players } => self
                .stop_hosting()
                .desk
                .create(*setup, &players, now)
                .map(|id| Some(EventNote::Created(id.to_string()))),
            EventRequest::Refresh => self.desk.refresh().map(|()| None),
            EventRequest::Open(id) => {
                self.tables_host = None;
                self.desk.open_event(&id).map(|()| None)
            }
            EventRequest::Host(true) => self.host_tables().map(|()| None),
            EventRequest::Host(false) => {
                self.tables_host = None;
                Ok(None)
            }
            EventRequest::RoundMinutes(minutes) => {
                let settings = Settings {
                    event_round_minutes: minutes,
                    ..self.settings().clone()
                };
                self.command(View::Event, Command::Settings(Box::new(settings)));
                Ok(None)
            }
            EventRequest::Close => {
                self.tables_host = None;
                self.desk.close();
                self.desk.refresh().map(|()| None)
            }
            EventRequest::Seat => {
                self.desk
                    .apply(crate::event::Command::SeatRound)
                    .map(|outcome| match outcome {
                        Outcome::Seated { round, repeats } => {
                            Some(EventNote::Seated { round, repeats })
                        }
                        _ => None,
                    })
            }
            EventRequest::Result {
                round,
                table,
                cells,
                correct,
            } => self
                .desk
                .enter_result(round, table, &cells, correct, now)
                .map(|outcome| match outcome {
                    Outcome::Recorded {
                        round,
                        table,
                        corrected,
                        round_complete,
                    } => Some(EventNote::Recorded {
                        round,
                        table,
                        corrected,
                        round_complete,
                    }),
                    _ => None,
                }),
            EventRequest::SeatingCsv(round) => self.export_seating_csv(lang, round),
            EventRequest::SeatingPicture(round) => self.export_event_picture(lang, round, true),
            EventRequest::StandingsPicture(round) => self.export_event_picture(lang, round, false),
            EventRequest::StandingsCsv(round) => self.export_standings_csv(lang, round),
            EventRequest::Release(round) => {
                self.event_view.release(round);
                Ok(None)
            }
        };
        match done {
            Ok(note) => {
                if self.refused.as_ref().is_some_and(|r| r.view == View::Event) {
                    self.refused = None;
                }
                if !quiet {
                    self.event_note = note;
                }
            }
            Err(e) => {
                self.event_note = None;
                self.refused = Some(Refused {
                    view: View::Event,
                    why: words::desk_error(lang, &e),
                });
            }
        }
    }

    fn open_id(&self) -> Result<String, DeskError> {
        self.desk
            .open()
            .map(|(id, _)| id.to_string())
            .ok_or(DeskError::NotOpen)
    }

    fn export_seating_csv(
        &mut self,
        lang: crate::lang::Language,
        round: u32,
    ) -> Result<Option<EventNote>, DeskError> {
        let id = self.open_id()?;
        let (_, event) = self.desk.open().ok_or(DeskError::NotOpen)?;
        let text = crate::event::export::seating_csv(
            &event,
            round,
            &crate::i18n::event::seating_labels(lang),
        )
        .ok_or(DeskError::Event(crate::event::Refusal::NoSuchRound(round)))?;
        let name = format!("{id}-round{round}-seating.csv");
        let dialog = Arc::clone(&self.save_dialog);
        self.desk.export(&name, text.into_bytes(), Some(dialog));
        Ok(None)
    }

    fn export_standings_csv(
        &mut self,
        lang: crate::lang::Language,
        round: u32,
    ) -> Result<Option<EventNote>, DeskError> {
        let id = self.open_id()?;
        let (_, event) = self.desk.open().ok_or(DeskError::NotOpen)?;
        let text = crate::event::export::standings_csv(
            &event.standings_through(round),
            &crate::i18n::event::standings_labels(lang),
        );
        let name = format!("{id}-round{round}-standings.csv");
        let dialog = Arc::clone(&self.save_dialog);
        self.desk.export(&name, text.into_bytes(), Some(dialog));
        Ok(None)
    }

    /// A round's seating sheet or the standings through it as a picture, drawn off the window
    /// ([`crate::ui::event_card`]) on the desk's export thread, then written as the CSVs are.
    fn export_event_picture(
        &mut self,
        lang: crate::lang::Language,
        round: u32,
        seating: bool,
    ) -> Result<Option<EventNote>, DeskError> {
        let id = self.open_id()?;
        let (_, event) = self.desk.open().ok_or(DeskError::NotOpen)?;
        if !event.rounds().iter().any(|r| r.number == round) {
            return Err(DeskError::Event(crate::event::Refusal::NoSuchRound(round)));
        }
        let kind = if seating { "seating" } else { "standings" };
        let name = format!("{id}-round{round}-{kind}.png");
        let made = chrono::Utc::now();
        let make: crate::evening::event_desk::MakeBytes = Box::new(move || {
            let card = if seating {
                crate::ui::event_card::seating(&event, round, lang, made)
            } else {
                Some(crate::ui::event_card::standings(&event, round, lang, made))
            };
            let card = card.ok_or_else(|| std::io::Error::other("no such round"))?;
            crate::ui::png_bytes(&card.image)
        });
        let dialog = Arc::clone(&self.save_dialog);
        self.desk.export_made(&name, make, Some(dialog));
        Ok(None)
    }
}
