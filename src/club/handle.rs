//! How the servers reach the owner: [`ClubHandle`], the tables' pages' host, and the command
//! line's loopback handler. Both hold the owner weakly (a stopped owner answers "not
//! hosting"), apply through [`super::ClubShared::apply_and_wait`] and answer in the asker's
//! language.

use std::sync::{Arc, Mutex, Weak};
use std::time::Instant;

use super::words;
use super::{
    Club, ClubCommand, ClubRefusal, ClubShared, Did, RelayAnswer, Relayed, RelayedAsk, SAVE_WAIT,
};
use crate::event::live::{Actor, TableCommand};
use crate::lang::Language;
use crate::score::{Hand, Remaining};
use crate::server::Secret;
use crate::server::control::Handler;
use crate::server::tv::{PageAction, PageAnswer, PageRefusal, PageRequest, TablesHost};
use crate::store::saver::Waited;

/// The longest device token a page may name (the owner makes 32 hex digits).
const MAX_DEVICE: usize = 64;

/// The tables' pages' host: the owner, weakly.
pub(super) struct ClubHandle {
    club: Weak<Mutex<Club>>,
    epoch: Instant,
}

impl ClubHandle {
    pub(super) fn new(club: Weak<Mutex<Club>>, epoch: Instant) -> ClubHandle {
        ClubHandle { club, epoch }
    }
}

fn page_refusal(lang: Language, refusal: &ClubRefusal, names: &[String]) -> PageRefusal {
    let (status, code) = match refusal {
        ClubRefusal::NoSuchTable(_) => (404, "no_table"),
        ClubRefusal::WrongKey => (403, "old_round"),
        ClubRefusal::NotSaved(_) | ClubRefusal::Store(_) => (503, "not_saved"),
        ClubRefusal::Table(crate::event::live::TableRefusal::SeatTaken(_)) => (409, "seat_taken"),
        ClubRefusal::Table(crate::event::live::TableRefusal::NoSeat) => (403, "no_seat"),
        ClubRefusal::NotOpen => (503, "not_hosting"),
        _ => (409, "refused"),
    };
    PageRefusal {
        status,
        code,
        message: words::page_refusal(lang, refusal, names),
    }
}

/// A page's action as the table's command; a rack that does not read is refused here.
fn command_of(action: PageAction, lang: Language) -> Result<TableCommand, PageRefusal> {
    let seat = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
    Ok(match action {
        PageAction::Claim { seat: n } => TableCommand::Claim { seat: seat(n) },
        PageAction::Leave => TableCommand::Leave,
        PageAction::Start => TableCommand::Start,
        PageAction::Pause => TableCommand::Pause,
        PageAction::Resume => TableCommand::Resume,
        PageAction::EndTurn { turn } => TableCommand::EndTurn { turn },
        PageAction::GameOver { went_out } => TableCommand::GameOver { went_out },
        PageAction::Reopen => TableCommand::Reopen,
        PageAction::Withdraw => TableCommand::Withdraw,
        PageAction::Winner { winner } => TableCommand::Winner {
            seat: winner.map(seat),
        },
        PageAction::Confirm { game, digest } => TableCommand::Confirm {
            game: usize::try_from(game).unwrap_or(usize::MAX),
            digest,
        },
        PageAction::Rack { rack, not_melded } => {
            if rack.len() > crate::server::MAX_RACK_TEXT {
                return Err(PageRefusal {
                    status: 422,
                    code: "bad_rack",
                    message: crate::i18n::remaining_error(
                        lang,
                        &crate::score::RemainingError::TooManyTiles(rack.chars().count()),
                    ),
                });
            }
            match rack.trim().parse::<Remaining>() {
                Ok(left) => TableCommand::Rack {
                    hand: Hand { left, not_melded },
                },
                Err(e) => {
                    return Err(PageRefusal {
                        status: 422,
                        code: "bad_rack",
                        message: crate::i18n::remaining_error(lang, &e),
                    });
                }
            }
        }
    })
}

impl TablesHost for ClubHandle {
    fn act(
        &self,
        table: u32,
        request: PageRequest,
        lang: Language,
    ) -> Result<PageAnswer, PageRefusal> {
        let Some(club) = self.club.upgrade() else {
            return Err(page_refusal(lang, &ClubRefusal::NotOpen, &[]));
        };
        let shared = ClubShared { club };
        let claim = matches!(request.action, PageAction::Claim { .. });
        let device = request
            .device
            .filter(|d| !d.is_empty() && d.len() <= MAX_DEVICE)
            .or_else(|| {
                // A page's first claim: the owner gives it its token.
                claim
                    .then(Secret::random)
                    .and_then(Result::ok)
                    .map(|s| s.as_str().to_owned())
            });
        let actor = match device {
            Some(device) => Actor::Device(device),
            None => {
                let refusal = ClubRefusal::Table(crate::event::live::TableRefusal::NoSeat);
                return Err(page_refusal(lang, &refusal, &[]));
            }
        };
        let names: Vec<String> = {
            let club = shared.lock();
            club.tv_view()
                .and_then(|v| v.tables.into_iter().find(|t| t.table == table))
                .map(|t| t.players)
                .unwrap_or_default()
        };
        let command = command_of(request.action, lang)?;
        let (done, waited) = shared.apply_and_wait(
            ClubCommand::Table {
                table,
                key: Some(request.key),
                actor,
                command,
            },
            SAVE_WAIT,
        );
        let done = done.map_err(|r| page_refusal(lang, &r, &names))?;
        let saved = done.ticket.is_some() && waited == Waited::Saved;
        if done.ticket.is_some() && !saved {
            return Err(PageRefusal {
                status: 503,
                code: "not_saved",
                message: words::NOT_SAVED_YET.get(lang).to_owned(),
            });
        }
        let device = match done.did {
            Did::Table { device, .. } if claim => device,
            _ => None,
        };
        Ok(PageAnswer { saved, device })
    }

    fn now_ms(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
    }
}

/// The command line's loopback handler: a [`Relayed`] command carried out by the owner as its
/// own, answered with the event as it is after it.
pub(super) fn control_handler(club: Weak<Mutex<Club>>) -> Handler {
    Arc::new(move |request: serde_json::Value| {
        let answer = match (club.upgrade(), serde_json::from_value::<Relayed>(request)) {
            (Some(club), Ok(relayed)) => relay(&ClubShared { club }, relayed),
            _ => RelayAnswer {
                ok: false,
                exit: 2,
                kind: "store".into(),
                message: "not a command".into(),
                id: None,
                event: None,
                outcome: None,
            },
        };
        serde_json::to_value(answer).unwrap_or_default()
    })
}

fn relay(shared: &ClubShared, relayed: Relayed) -> RelayAnswer {
    let lang = relayed.lang;
    let open_id = shared.lock().open_event().map(|(id, _)| id.clone());
    let refused = |refusal: &ClubRefusal| {
        let (exit, kind) = words::exit_of(refusal);
        RelayAnswer {
            ok: false,
            exit,
            kind: kind.into(),
            message: words::refusal(lang, refusal, &[]),
            id: None,
            event: None,
            outcome: None,
        }
    };
    let command = match relayed.ask {
        RelayedAsk::Create { setup, players } => ClubCommand::Create {
            setup,
            players,
            open: false,
        },
        // The host holds one event open: another one's command waits until it is closed.
        _ if relayed.event.is_some() && relayed.event != open_id => {
            return refused(&ClubRefusal::Held(None));
        }
        RelayedAsk::Event(command) => ClubCommand::Event(command),
        RelayedAsk::FreeSeat { table, seat } => ClubCommand::Table {
            table,
            key: None,
            actor: Actor::Organiser,
            command: TableCommand::Free { seat },
        },
    };
    let (done, waited) = shared.apply_and_wait(command, SAVE_WAIT);
    match done {
        Err(refusal) => refused(&refusal),
        Ok(done) if done.ticket.is_some() && waited != Waited::Saved => {
            let refusal =
                ClubRefusal::NotSaved(std::sync::Arc::new(crate::store::StoreError::Write {
                    file: std::path::PathBuf::from(crate::store::EVENTS_DIR),
                    source: std::io::Error::other("not written in time"),
                }));
            refused(&refusal)
        }
        Ok(done) => {
            let club = shared.lock();
            let (id, event) = match (&done.did, club.open_event()) {
                (Did::Created(id), _) => (Some(id.clone()), None),
                (_, Some((id, event))) => {
                    (Some(id.clone()), Some(crate::event::Event::clone(event)))
                }
                _ => (None, None),
            };
            let outcome = match done.did {
                Did::Event(outcome) => Some(outcome),
                _ => None,
            };
            RelayAnswer {
                ok: true,
                id,
                event,
                outcome,
                exit: 0,
                kind: String::new(),
                message: String::new(),
            }
        }
    }
}
