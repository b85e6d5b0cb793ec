//! Carrying out commands: the one `apply` every input goes through, so the guard, the undo
//! history, the saving and what the phones see follow every change, whoever made it.

use std::sync::Arc;

use super::command::{Command, Done, DraftEdit, Refusal};
use super::saved::{Draft, DraftProblem};
use super::sheets::SheetError;
use super::undo::{Area, Change, Parts, SheetPart, TimerPart};
use super::{Evening, Settings, Shared, TableNotice, Urgency, same_name};
use crate::score::{MatchState, Remaining, Sheet, SheetPatch};
use crate::server::{MAX_RACK_TEXT, PhoneAction};
use crate::speech::phrases::Happening;
use crate::store::SheetId;
use crate::timer::{Phase, PressRefusal, Pressed, Presser, Timer, TimerMode, TimerSettings};

impl Evening {
    /// Applies one command and saves what it changed; see [`Command`] for what each does.
    /// `shared` is this evening's handle (the phone server is started with it).
    pub fn apply(&mut self, command: Command, shared: &Shared) -> Result<Done, Refusal> {
        self.refresh();
        let result = self.carry_out(command, shared);
        self.sync_voice();
        let ticket = self.persist();
        self.update_keep_awake();
        self.publish();
        // Whoever asked, the window shows it (a phone's tap wakes a window nobody touches).
        (self.repaint)();
        result.map(|mut done| {
            done.ticket = done.ticket.or(ticket);
            done
        })
    }

    fn carry_out(&mut self, command: Command, shared: &Shared) -> Result<Done, Refusal> {
        match command {
            Command::Primary => self.primary(),
            Command::TogglePause => self.toggle_pause(),
            Command::ResetTimer => {
                let before = self.timer_parts();
                self.timer.reset();
                self.record(Change::TimerReset, before)
            }
            Command::SetPlayers(names) => {
                let before = self.timer_parts();
                self.timer.command(|t, _| t.set_players(names))?;
                self.players_changed(before)
            }
            Command::Rename(seat, name) => self.rename(seat, &name),
            Command::MergeNames { from, into } => self.merge_names(&from, Some(&into)),
            Command::SeparateName(from) => self.merge_names(&from, None),
            Command::NewSheet { rounds, target } => self.new_sheet(rounds, target),
            Command::OpenSheet(id) => self.open_sheet(&id),
            Command::ApplyRules => {
                let rules = self.settings.rules;
                self.change_sheet(|sheet| {
                    sheet.set_rules(super::sheets::with_scoring(sheet.rules(), &rules))?;
                    Ok(Change::RulesApplied)
                })
            }
            Command::DeleteGame(index, game) => {
                if !self.delete_guard.allow(self.clock.now())
                    || self.book.sheet().and_then(|s| s.games().get(index)) != Some(&game)
                {
                    return Err(Refusal::Guarded);
                }
                self.change_sheet(|sheet| {
                    let n = sheet.number(index);
                    sheet.delete_game(index)?;
                    Ok(Change::GameDeleted(n.round, n.in_round))
                })
            }
            Command::AddGame => self.open_form(None),
            Command::EditGame(index) => self.open_form(Some(index)),
            Command::Draft(edit) => self.edit_draft(edit),
            Command::SaveGame => self.save_game(),
            Command::DiscardDraft => self.discard_draft(),
            Command::Settings(settings) => self.set_settings(*settings),
            Command::Phones(on) => {
                if on {
                    let bind = super::phones::table_bind(self.settings.phone_port);
                    self.start_phones_on(bind, shared);
                } else {
                    // Stopped here and now: a request still in flight is given a moment
                    // (the server's grace), never waited for.
                    drop(self.phones.stop());
                }
                self.settings.phones = on;
                self.dirty.settings = true;
                self.dirty.evening(Urgency::Now);
                Ok(Done::default())
            }
            Command::NewLink => {
                let bind = self.phones.local_addr();
                drop(self.phones.stop());
                if let Some(bind) = bind {
                    self.start_phones_on(bind, shared);
                }
                self.dirty.evening(Urgency::Now);
                Ok(Done::default())
            }
            Command::ChooseAddress(ip) => {
                self.phones.choose(ip)?;
                Ok(Done::default())
            }
            Command::FindAddresses => {
                self.phones.find_addresses();
                Ok(Done::default())
            }
            Command::Undo(area) => self.undo(area),
            Command::Redo(area) => self.redo(area),
            Command::Dismiss(index) => {
                self.notices.dismiss(index);
                Ok(Done::default())
            }
            Command::ExportCsv(to) => {
                let path = self
                    .book
                    .export_csv(self.settings.language, to.as_deref())?;
                let now = self.clock.now();
                self.notices
                    .push(TableNotice::Exported(path.display().to_string()), now);
                Ok(Done {
                    wrote: Some(path),
                    ..Done::default()
                })
            }
            Command::ExportCsvNoDialog => {
                let path = self.book.export_csv(self.settings.language, None)?;
                let now = self.clock.now();
                self.notices.push(
                    TableNotice::ExportedNoDialog(path.display().to_string()),
                    now,
                );
                Ok(Done {
                    wrote: Some(path),
                    ..Done::default()
                })
            }
            Command::Wrote { path, error } => {
                let now = self.clock.now();
                let notice = match error {
                    None => TableNotice::Exported(path.display().to_string()),
                    Some(why) => TableNotice::Failed(super::Worded::new(|lang| {
                        format!("{}: {}", path.display(), why.get(lang))
                    })),
                };
                self.notices.push(notice, now);
                Ok(Done::default())
            }
            Command::TestVoice(lang) => {
                if self.voice.speaker().engine().is_none() {
                    let now = self.clock.now();
                    self.notices.push(TableNotice::NoVoice, now);
                } else {
                    self.voice.test(lang);
                }
                Ok(Done::default())
            }
            Command::TestSound => {
                if self.no_audio {
                    let now = self.clock.now();
                    self.notices.push(TableNotice::NothingToPlay, now);
                } else {
                    let sounder = self.timer.sounder();
                    for cue in crate::sound::Cue::ALL {
                        sounder.play(cue);
                    }
                }
                Ok(Done::default())
            }
            Command::Checkpoint => {
                self.dirty.evening(Urgency::Soon);
                Ok(Done::default())
            }
            Command::Phone { link, .. } if link != self.phones.evening() => Err(Refusal::OldLink),
            Command::Phone { action, .. } => self.phone(action),
        }
    }

    /// The timer as it is now, as undo keeps it.
    fn timer_parts(&self) -> Parts {
        Parts {
            timer: Some(
                self.timer
                    .read(|t, now| TimerPart::Live(Box::new(t.clone()), now)),
            ),
            ..Parts::default()
        }
    }

    /// Records a change with the parts it touched as they were, and saves the evening.
    fn record(&mut self, change: Change, before: Parts) -> Result<Done, Refusal> {
        self.undo.record(change.clone(), before);
        self.dirty.evening(Urgency::Now);
        Ok(Done::change(change))
    }

    fn primary(&mut self) -> Result<Done, Refusal> {
        self.press(Presser::Table)
    }

    /// The table's button pressed by `by`: the one guard and turn rule every table shares
    /// ([`EndTurnGuard::press`](crate::timer::EndTurnGuard::press)).
    fn press(&mut self, by: Presser) -> Result<Done, Refusal> {
        let before = self.timer_parts();
        let players = self.settings.players.clone();
        let guard = &mut self.guard;
        let change = self
            .timer
            .command(|t, now| guard.press(t, now, by))
            .map(|pressed| match pressed {
                Pressed::Started => Change::Started,
                Pressed::Ended(end) => {
                    Change::TurnEnded(players.get(end.player).cloned().unwrap_or_default())
                }
            })
            .map_err(|refused| match refused {
                PressRefusal::Guarded => Refusal::Guarded,
                PressRefusal::NotStarted => Refusal::NotStarted,
                PressRefusal::StaleTurn => Refusal::StaleTurn,
                PressRefusal::NotYourTurn => Refusal::NotYourTurn,
            })?;
        // Whose turn it is now, said at once (a new turn cuts off words still being said).
        let seat = self.timer.read(|t, _| t.current_player());
        let name = self.voice.seat_name(seat);
        self.voice
            .announce(&Happening::Turn { name }, std::time::Duration::ZERO);
        self.record(change, before)
    }

    fn toggle_pause(&mut self) -> Result<Done, Refusal> {
        let before = self.timer_parts();
        let change = self.timer.command(|t, now| match t.phase() {
            Phase::Running => t.pause(now).map(|()| Some(Change::Paused)),
            Phase::Paused => t.resume(now).map(|()| Some(Change::Resumed)),
            Phase::Idle => Ok(None),
        })?;
        match change {
            Some(change) => {
                let said = match change {
                    Change::Paused => Happening::Paused,
                    _ => Happening::Resumed,
                };
                self.voice.announce(&said, std::time::Duration::ZERO);
                self.record(change, before)
            }
            None => Err(Refusal::NotStarted),
        }
    }

    fn rename(&mut self, seat: usize, name: &str) -> Result<Done, Refusal> {
        let mut before = self.timer_parts();
        let old = self.settings.players.get(seat).cloned().unwrap_or_default();
        self.timer
            .command(|t, _| t.rename_player(seat, name.trim()))?;
        // The spoken form follows the name.
        if let Some(key) = self
            .settings
            .spoken
            .keys()
            .find(|k| same_name(k, &old))
            .cloned()
            && let Some(said) = self.settings.spoken.remove(&key)
        {
            self.settings.spoken.insert(name.trim().to_owned(), said);
        }
        // The evening's other sheets follow (so the history does not split the player in
        // two), in the same undo step.
        before.others = self.rename_in_tonights_sheets(&old, name.trim());
        // The open sheet follows, in the same undo step.
        let sheet_before = self.book.open_sheet();
        if let Some(index) = self
            .book
            .sheet()
            .and_then(|s| s.players().names().iter().position(|n| same_name(n, &old)))
            && self
                .book
                .change(|sheet| sheet.rename_player(index, name.trim()))
                .is_ok()
        {
            before.sheet = sheet_part(sheet_before, &self.book.open_sheet());
            self.dirty.sheet = true;
        }
        self.players_changed(before)
    }

    /// Renames `old` to `new` on every saved sheet started tonight (but the open one, which
    /// the caller renames) that has `old` and not `new`; returns what puts each back.
    fn rename_in_tonights_sheets(&mut self, old: &str, new: &str) -> Vec<(SheetId, SheetPatch)> {
        if same_name(old, new) {
            return Vec::new();
        }
        let mut undo = Vec::new();
        for (id, sheet) in self.library.of_night((self.wall)(), self.book.id()) {
            let names = sheet.players().names();
            let Some(seat) = names.iter().position(|n| same_name(n, old)) else {
                continue;
            };
            if names.iter().any(|n| same_name(n, new)) {
                continue;
            }
            let mut renamed = Sheet::clone(&sheet);
            if renamed.rename_player(seat, new).is_err() {
                continue;
            }
            undo.push((id.clone(), renamed.patch_to(&sheet)));
            self.save_other(&id, Arc::new(renamed));
        }
        undo
    }

    /// Saves a sheet that is not the open one (the library and the history follow).
    fn save_other(&mut self, id: &SheetId, sheet: Arc<Sheet>) {
        self.library.saved(id, Arc::clone(&sheet));
        if let Some(saver) = &self.saver {
            let _ticket = saver.sheet(id, sheet);
        }
    }

    /// Counts `from` as `into` in the history (or, `into` none, `from` as itself again).
    fn merge_names(&mut self, from: &str, into: Option<&str>) -> Result<Done, Refusal> {
        let before = Parts {
            merges: Some(self.settings.merged_names.clone()),
            ..Parts::default()
        };
        let mut merged = self.settings.merged_names.clone();
        merged.retain(|(f, _)| !same_name(f, from));
        let change = match into {
            Some(into) => {
                let (a, b) = (from.trim(), into.trim());
                let resolves_to = |name: &str| {
                    let mut key = crate::history::name_key(name);
                    for _ in 0..=merged.len() {
                        match merged
                            .iter()
                            .find(|(f, _)| crate::history::name_key(f) == key)
                        {
                            Some((_, t)) => key = crate::history::name_key(t),
                            None => break,
                        }
                    }
                    key
                };
                if a.is_empty() || b.is_empty() || resolves_to(a) == resolves_to(b) {
                    return Err(Refusal::SameName(a.to_owned(), b.to_owned()));
                }
                merged.push((a.to_owned(), b.to_owned()));
                Change::NamesMerged {
                    from: a.to_owned(),
                    into: b.to_owned(),
                }
            }
            None => {
                let Some((f, t)) = self
                    .settings
                    .merged_names
                    .iter()
                    .find(|(f, _)| same_name(f, from))
                    .cloned()
                else {
                    return Ok(Done::default());
                };
                Change::NamesSeparated { from: f, into: t }
            }
        };
        self.settings.merged_names = merged;
        self.library.set_merges(&self.settings.merged_names);
        self.dirty.settings = true;
        self.record(change, before)
    }

    /// The timer's seats changed: the settings follow (the seats are kept there too); the
    /// undo offer names what changed ("Ben renamed Benny").
    fn players_changed(&mut self, mut before: Parts) -> Result<Done, Refusal> {
        let old = self.settings.players.clone();
        before.seats = Some((old.clone(), self.settings.rules));
        self.settings.players = self.timer.read(|t, _| t.players().to_vec());
        self.dirty.settings = true;
        let change = Change::of_seats(&old, &self.settings.players);
        self.record(change, before)
    }

    /// Changes the open sheet and records it; a refused change leaves everything as it was.
    fn change_sheet(
        &mut self,
        change: impl FnOnce(&mut Sheet) -> Result<Change, crate::score::ScoreError>,
    ) -> Result<Done, Refusal> {
        let before = self.book.open_sheet();
        let change = self.book.change(change)?;
        self.dirty.sheet = true;
        let parts = Parts {
            sheet: sheet_part(before, &self.book.open_sheet()),
            ..Parts::default()
        };
        self.record(change, parts)
    }

    /// Which sheet is open, as undo keeps it (the sheet itself only without a data folder).
    fn open_part(&self) -> SheetPart {
        SheetPart::Open {
            id: self.book.id().cloned(),
            kept: match self.book.store() {
                Some(_) => None,
                None => self.book.shared().map(|(_, sheet)| sheet),
            },
        }
    }

    fn new_sheet(&mut self, rounds: Option<u32>, target: Option<i64>) -> Result<Done, Refusal> {
        let before = Parts {
            sheet: Some(self.open_part()),
            ..Parts::default()
        };
        let players = self.settings.players.clone();
        let now = (self.wall)();
        let (library, drafts) = (&self.library, &self.drafts);
        let taken = |id: &SheetId| library.knows(id) || drafts.contains_key(id);
        self.book
            .new_sheet(&players, self.settings.rules, rounds, target, now, taken)?;
        self.dirty.sheet = true;
        self.record(Change::NewSheet, before)
    }

    fn open_sheet(&mut self, id: &SheetId) -> Result<Done, Refusal> {
        if self.book.id() == Some(id) {
            return Ok(Done::default());
        }
        let before = Parts {
            sheet: Some(self.open_part()),
            ..Parts::default()
        };
        let notices = self.load_sheet(id)?;
        let now = self.clock.now();
        self.notices.extend_store(notices, now);
        self.drop_saved_draft();
        self.record(Change::SheetOpened, before)
    }

    /// The open sheet's id, or the refusal when none is open.
    fn open_id(&self) -> Result<SheetId, Refusal> {
        self.book
            .id()
            .cloned()
            .ok_or(Refusal::from(SheetError::NoSheet))
    }

    /// The draft part of the open sheet, as undo keeps it.
    fn draft_part(&self, id: &SheetId) -> Option<(SheetId, Option<Draft>)> {
        Some((id.clone(), self.drafts.get(id).cloned()))
    }

    fn open_form(&mut self, editing: Option<usize>) -> Result<Done, Refusal> {
        let id = self.open_id()?;
        let sheet = self.book.sheet().ok_or(Refusal::NoForm)?;
        let players = sheet.players().len();
        let fresh = match editing {
            None => Draft::new(self.next_entry, players),
            Some(index) => {
                let game = sheet.games().get(index).ok_or(SheetError::Score(
                    crate::score::ScoreError::NoSuchGame(index + 1),
                ))?;
                Draft::of_game(self.next_entry, index, game)
            }
        };
        match (self.drafts.get(&id), editing) {
            // "Add game" on a kept draft of a new game: it comes back as typed.
            (Some(kept), None) if kept.editing.is_none() => return Ok(Done::default()),
            (Some(kept), Some(i)) if kept.editing == Some(i) => return Ok(Done::default()),
            _ => {}
        }
        self.next_entry += 1;
        let before = self.draft_part(&id);
        let replaced = self.drafts.insert(id, fresh);
        self.dirty.evening(Urgency::Soon);
        match replaced {
            // What was typed before is not thrown away without a way back.
            Some(old) if !old.untouched() => self.record(
                Change::DraftDiscarded,
                Parts {
                    draft: before,
                    ..Parts::default()
                },
            ),
            _ => Ok(Done::default()),
        }
    }

    fn edit_draft(&mut self, edit: DraftEdit) -> Result<Done, Refusal> {
        let id = self.open_id()?;
        let draft = self.drafts.get_mut(&id).ok_or(Refusal::NoForm)?;
        match edit {
            DraftEdit::Left(seat, text) => {
                let field = draft.left.get_mut(seat).ok_or(Refusal::NoSuchSeat(seat))?;
                *field = text;
            }
            DraftEdit::Tile(seat, tile) => {
                let field = draft.left.get_mut(seat).ok_or(Refusal::NoSuchSeat(seat))?;
                add_tile(field, &crate::i18n::tile(self.settings.language, tile));
            }
            DraftEdit::NotMelded(seat, on) => {
                let flag = draft
                    .not_melded
                    .get_mut(seat)
                    .ok_or(Refusal::NoSuchSeat(seat))?;
                *flag = on;
            }
            DraftEdit::TieWinner(seat) => draft.tie_winner = seat,
        }
        // A winner named for a tie that the values typed since no longer make (no tie, or a
        // tie without them) is dropped: it would block Save with no choice left on screen.
        if let (Some(winner), Some(sheet)) = (draft.tie_winner, self.book.sheet()) {
            let undecided = Draft {
                tie_winner: None,
                ..draft.clone()
            };
            let applies = match undecided.game(sheet, (self.wall)()) {
                Err(DraftProblem::Score(crate::score::ScoreError::Tie { tied, .. })) => {
                    tied.iter().any(|seat| seat.index == winner)
                }
                Ok(_) => false,
                // Still being typed: whether it applies is not known yet.
                Err(_) => true,
            };
            if !applies {
                draft.tie_winner = None;
            }
        }
        self.dirty.evening(Urgency::Soon);
        Ok(Done::default())
    }

    fn save_game(&mut self) -> Result<Done, Refusal> {
        let id = self.open_id()?;
        let draft = self.drafts.get(&id).ok_or(Refusal::NoForm)?.clone();
        let sheet = self.book.sheet().ok_or(Refusal::NoForm)?;
        let game = draft.game(sheet, (self.wall)())?;
        let was_over = sheet.match_state().is_finished();
        let before_sheet = self.book.open_sheet();
        let change = self.book.change(|sheet| match draft.editing {
            Some(index) => {
                sheet.edit_game(index, game)?;
                let n = sheet.number(index);
                Ok(Change::GameEdited(n.round, n.in_round))
            }
            None => {
                let index = sheet.add_game(game)?;
                let n = sheet.number(index);
                Ok(Change::GameAdded(n.round, n.in_round))
            }
        })?;
        self.dirty.sheet = true;
        // The sheet and its form change together: undo brings the form back as it was.
        let parts = Parts {
            sheet: sheet_part(before_sheet, &self.book.open_sheet()),
            draft: self.draft_part(&id),
            ..Parts::default()
        };
        self.drafts.remove(&id);
        if matches!(change, Change::GameAdded(..)) {
            self.announce_result(was_over);
        }
        self.record(change, parts)
    }

    /// A new game on the sheet: its winner, or the match's when this game ended it; nothing
    /// for a game added after the match was over (it does not count).
    fn announce_result(&self, was_over: bool) {
        let Some(sheet) = self.book.sheet() else {
            return;
        };
        if was_over {
            return;
        }
        let names = sheet.players().names();
        let said = match sheet.match_state() {
            MatchState::Finished(end) => Happening::MatchWon {
                names: end
                    .winners
                    .iter()
                    .filter_map(|&i| names.get(i))
                    .map(|n| self.voice.spoken_name(n))
                    .collect(),
            },
            _ => {
                let Some(score) = sheet.scores().last() else {
                    return;
                };
                let Some(name) = names.get(score.winner) else {
                    return;
                };
                Happening::GameWon {
                    name: self.voice.spoken_name(name),
                }
            }
        };
        self.voice.announce(&said, std::time::Duration::ZERO);
    }

    fn discard_draft(&mut self) -> Result<Done, Refusal> {
        let id = self.open_id()?;
        let before = self.draft_part(&id);
        let Some(draft) = self.drafts.remove(&id) else {
            return Ok(Done::default());
        };
        self.dirty.evening(Urgency::Now);
        if draft.untouched() {
            return Ok(Done::default());
        }
        self.record(
            Change::DraftDiscarded,
            Parts {
                draft: before,
                ..Parts::default()
            },
        )
    }

    fn set_settings(&mut self, settings: Settings) -> Result<Done, Refusal> {
        if settings == self.settings {
            return Ok(Done::default());
        }
        let rules_changed = settings.rules != self.settings.rules;
        let rules_before = self.settings.rules;
        let before = Parts {
            seats: Some((self.settings.players.clone(), self.settings.rules)),
            ..Parts::default()
        };
        if settings.players != self.settings.players {
            // Seats change through the clock (its own checks); a stale copy cannot undo them.
            let players = self.settings.players.clone();
            self.settings = Settings {
                players,
                ..settings
            };
        } else {
            self.settings = settings;
        }
        self.apply_sound_and_clock();
        self.dirty.settings = true;
        if rules_changed {
            let change = Change::RuleChanged {
                from: rules_before,
                to: self.settings.rules,
            };
            return self.record(change, before);
        }
        Ok(Done::default())
    }

    /// Sound level and the clock's settings follow the settings.
    fn apply_sound_and_clock(&self) {
        let sounder = self.timer.sounder();
        sounder.set_volume(self.settings.volume);
        sounder.set_muted(self.settings.muted);
        self.timer
            .set_settings(TimerSettings::from_rules(&self.settings.rules));
        self.timer
            .set_mode(TimerMode::from_rules(&self.settings.rules));
    }

    fn undo(&mut self, area: Option<Area>) -> Result<Done, Refusal> {
        let entry = self.undo.take_undo(area).ok_or(Refusal::NothingToUndo)?;
        match self.restore(entry.state.clone()) {
            Ok(after) => {
                self.undo.undone(entry.change.clone(), after);
                self.dirty.evening(Urgency::Now);
                Ok(Done::change(entry.change))
            }
            Err(e) => {
                self.undo.redone(entry.change, entry.state);
                Err(e)
            }
        }
    }

    fn redo(&mut self, area: Option<Area>) -> Result<Done, Refusal> {
        let entry = self.undo.take_redo(area).ok_or(Refusal::NothingToRedo)?;
        match self.restore(entry.state.clone()) {
            Ok(before) => {
                self.undo.redone(entry.change.clone(), before);
                self.dirty.evening(Urgency::Now);
                Ok(Done::change(entry.change))
            }
            Err(e) => {
                self.undo.undone(entry.change, entry.state);
                Err(e)
            }
        }
    }

    /// Puts the parts of a snapshot back (saving what is saved) and returns the parts as they
    /// were just before: what redoes (or undoes again) what was restored.
    fn restore(&mut self, parts: Parts) -> Result<Parts, Refusal> {
        let mut inverse = Parts::default();
        // The sheet first: it is the only part that can fail to come back.
        if let Some(part) = parts.sheet {
            inverse.sheet = Some(self.restore_sheet(part)?);
        }
        if let Some(part) = parts.timer {
            inverse.timer = self.timer_parts().timer;
            let settings = TimerSettings::from_rules(&self.settings.rules);
            match part {
                TimerPart::Live(timer, taken_at) => self
                    .timer
                    .command(|t, now| *t = timer.rebased(taken_at, now)),
                TimerPart::Saved(saved) => {
                    let timer = self
                        .timer
                        .command(|_, now| Timer::restore(&saved, settings, now))?;
                    self.timer.command(|t, _| *t = timer);
                }
            }
        }
        if let Some((players, rules)) = parts.seats {
            inverse.seats = Some((self.settings.players.clone(), self.settings.rules));
            self.settings.players = players;
            self.settings.rules = rules;
            self.apply_sound_and_clock();
            self.dirty.settings = true;
        }
        for (id, patch) in parts.others {
            if self.book.id() == Some(&id) {
                // Opened since: it is the open sheet now.
                let before = self.book.open_sheet();
                self.book.change(|sheet| sheet.apply_patch(&patch))?;
                self.dirty.sheet = true;
                if let (Some((_, old)), Some((_, new))) = (before, self.book.open_sheet()) {
                    inverse.others.push((id, new.patch_to(&old)));
                }
                continue;
            }
            let Some(sheet) = self.library.get(&id) else {
                continue;
            };
            let mut back = Sheet::clone(&sheet);
            back.apply_patch(&patch).map_err(SheetError::Score)?;
            inverse.others.push((id.clone(), back.patch_to(&sheet)));
            self.save_other(&id, Arc::new(back));
        }
        if let Some(merges) = parts.merges {
            inverse.merges = Some(std::mem::replace(&mut self.settings.merged_names, merges));
            self.library.set_merges(&self.settings.merged_names);
            self.dirty.settings = true;
        }
        if let Some((id, draft)) = parts.draft {
            inverse.draft = Some((id.clone(), self.drafts.get(&id).cloned()));
            match draft {
                Some(draft) => {
                    self.drafts.insert(id, draft);
                }
                None => {
                    self.drafts.remove(&id);
                }
            }
        }
        Ok(inverse)
    }

    fn restore_sheet(&mut self, part: SheetPart) -> Result<SheetPart, Refusal> {
        match part {
            SheetPart::Games { id, patch } => {
                if self.book.id() != Some(&id) {
                    // The sheet it belongs to must be open first (undo its switch).
                    return Err(Refusal::from(SheetError::NoSheet));
                }
                let before = self.book.open_sheet();
                self.book.change(|sheet| sheet.apply_patch(&patch))?;
                self.dirty.sheet = true;
                sheet_part(before, &self.book.open_sheet())
                    .ok_or(Refusal::from(SheetError::NoSheet))
            }
            SheetPart::Open { id, kept } => {
                let inverse = self.open_part();
                match (id, kept) {
                    (None, _) => self.book.set_open(None),
                    (Some(id), Some(sheet)) => self.book.set_open(Some((id, sheet))),
                    (Some(id), None) if self.book.id() == Some(&id) => {}
                    (Some(id), None) => {
                        let notices = self.load_sheet(&id)?;
                        let now = self.clock.now();
                        self.notices.extend_store(notices, now);
                        self.drop_saved_draft();
                    }
                }
                Ok(inverse)
            }
        }
    }

    /// Starts the phones' server on `bind` (the table's port; tests use `127.0.0.1:0`).
    pub fn start_phones_on(&mut self, bind: std::net::SocketAddr, shared: &Shared) {
        let view = self.phone_view();
        let weak = shared.weak();
        self.phones
            .start(bind, view, |link| super::phones::host(weak, link));
    }

    /// A phone's request: checked here, against the evening as it is now, and carried out
    /// through the same commands as the window's.
    fn phone(&mut self, action: PhoneAction) -> Result<Done, Refusal> {
        let (phase, players) = self.timer.read(|t, _| (t.phase(), t.players().to_vec()));
        if action.seat() >= players.len() {
            return Err(Refusal::NoSuchSeat(action.seat()));
        }
        match action {
            PhoneAction::EndTurn { seat, turn } => {
                let by = Presser::Seat {
                    seat,
                    turn,
                    anyone: self.settings.anyone_may_end,
                };
                // A second phone (or a key) within the guard is the same gesture: that turn
                // has already ended as far as the phone is concerned.
                self.press(by).map_err(|e| match e {
                    Refusal::Guarded => Refusal::StaleTurn,
                    other => other,
                })
            }
            // Start from a phone: the first turn starts as with the key (the same guard and
            // undo record); a second phone's Start that comes after it must not pause it.
            PhoneAction::TogglePause { .. } if phase == Phase::Idle => {
                self.primary().map_err(|e| match e {
                    Refusal::Guarded => Refusal::AlreadyStarted,
                    other => other,
                })
            }
            PhoneAction::TogglePause { start: true, .. } => Err(Refusal::AlreadyStarted),
            PhoneAction::TogglePause { .. } => self.toggle_pause(),
            PhoneAction::EnterRack { seat, text } => {
                if text.len() > MAX_RACK_TEXT {
                    return Err(Refusal::RackTooLong(text.chars().count()));
                }
                text.trim().parse::<Remaining>().map_err(Refusal::BadRack)?;
                let sheet = self.book.sheet().ok_or(Refusal::NoForm)?;
                let name = &players[seat];
                let index = sheet
                    .players()
                    .names()
                    .iter()
                    .position(|n| same_name(n, name))
                    .ok_or_else(|| Refusal::NotOnSheet(name.clone()))?;
                match self.draft() {
                    Some(d) if d.editing.is_some() => return Err(Refusal::EditingSavedGame),
                    Some(_) => {}
                    // The add-game form opens by itself (a phone's entry moves no view).
                    None => {
                        let _opened = self.open_form(None)?;
                    }
                }
                self.edit_draft(DraftEdit::Left(index, text.trim().to_owned()))
            }
        }
    }
}

/// Adds a picked tile (named in the table's language: `R5`, `빨5`, `조커`) to a remaining-value
/// field: a typed number gives way to tiles.
fn add_tile(text: &mut String, tile: &str) {
    let current = text.trim();
    *text = if current.is_empty() || current.chars().all(|c| c.is_ascii_digit()) {
        tile.to_owned()
    } else {
        format!("{current} {tile}")
    };
}

/// The sheet part that puts `before` back over `after` (the same sheet changed), or which
/// sheet was open when another is now.
fn sheet_part(
    before: super::sheets::OpenSheet,
    after: &super::sheets::OpenSheet,
) -> Option<SheetPart> {
    match (before, after) {
        (Some((id, old)), Some((now_id, new))) if &id == now_id => {
            if Arc::ptr_eq(&old, new) {
                return None;
            }
            Some(SheetPart::Games {
                patch: new.patch_to(&old),
                id,
            })
        }
        (before, _) => Some(SheetPart::Open {
            id: before.map(|(id, _)| id),
            kept: None,
        }),
    }
}
