//! The phones as the table's buttons: what they see, and their requests turned into the app's
//! own actions (same guard, same undo history).

use super::*;

/// Whether two seat names are the same player (trimmed, ignoring case), as the seat rule says.
pub(super) fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

impl App {
    /// Starts the phones' server on `bind` (tests use `127.0.0.1:0`).
    pub fn start_phones(&mut self, ctx: &egui::Context, bind: std::net::SocketAddr) {
        let ctx = ctx.clone();
        let state = self.table_state();
        self.phones
            .start(bind, state, move || ctx.request_repaint());
    }

    /// The phones' server and its link.
    pub fn phones(&self) -> &Phones {
        &self.phones
    }

    /// What the phones see: the clock, the names, and the open sheet's form by timer seat.
    pub(super) fn table_state(&self) -> TableState {
        let entry = self.session.sheet().map(|sheet| {
            let names = sheet.players().names();
            let draft = self.sheet_view.draft();
            self.settings
                .players
                .iter()
                .map(|name| {
                    let seat = names.iter().position(|n| same_name(n, name));
                    seat.and_then(|i| draft.and_then(|d| d.left.get(i)).cloned())
                        .unwrap_or_default()
                })
                .collect()
        });
        self.timer.read(|t, now| {
            TableState::from_timer(
                t,
                now,
                self.phones.evening(),
                self.settings.anyone_may_end,
                entry,
            )
        })
    }

    /// Carries out the phones' requests through the same actions as the window's.
    pub(super) fn phone_requests(&mut self, ctx: &egui::Context) {
        for request in self.phones.take_requests() {
            let result = self.phone_action(ctx, &request.action);
            request.reply(result);
        }
    }

    pub(super) fn phone_action(
        &mut self,
        ctx: &egui::Context,
        action: &PhoneAction,
    ) -> Result<(), Refusal> {
        let (current, turn, phase, players) = self.timer.read(|t, _| {
            (
                t.current_player(),
                t.turn_id(),
                t.phase(),
                t.players().to_vec(),
            )
        });
        match action {
            PhoneAction::EndTurn { seat, turn: asked } => {
                if turn != Some(*asked) {
                    return Err(Refusal::StaleTurn);
                }
                if *seat != current && !self.settings.anyone_may_end {
                    return Err(Refusal::NotYourTurn);
                }
                self.apply(ctx, Action::Timer(TimerCommand::Primary));
                // The guard may have taken it for a second press of the same gesture.
                match self.timer.read(|t, _| t.turn_id()) {
                    now if now == Some(*asked) => Err(Refusal::StaleTurn),
                    _ => Ok(()),
                }
            }
            PhoneAction::TogglePause { .. } if phase == Phase::Idle => Err(Refusal::NotStarted),
            PhoneAction::TogglePause { .. } => {
                self.apply(ctx, Action::Timer(TimerCommand::TogglePause));
                Ok(())
            }
            PhoneAction::EnterRack { seat, text } => {
                let Some(sheet) = self.session.sheet() else {
                    return Err(Refusal::NoSheet);
                };
                let name = players.get(*seat).ok_or(Refusal::NoSuchSeat(*seat))?;
                let names = sheet.players().names();
                let Some(index) = names.iter().position(|n| same_name(n, name)) else {
                    let s = self.settings.language.strings();
                    return Err(phones::rejected((s.not_on_sheet)(name)));
                };
                self.sheet_view.fill_field(index, text, names.len());
                Ok(())
            }
        }
    }
}
