//! The club night outside the window: [`Club`], the one owner of a data folder's club nights —
//! the open event (one copy of it), its tables at play, their keys and the seats' phones —
//! with one way to change them, [`Club::apply`].
//!
//! Why one owner outside the window, as the evening has: a club night is driven from several
//! places at once — the organiser's window, `event serve` on a spare laptop, every table's
//! phones, a terminal's `event result` — and the promises a tournament relies on (nothing told
//! "saved" is lost, a seat acts only from its own phone, a damaged file is never a silent
//! roll-back) must hold whoever acts. So they are kept in one place, tested without any window,
//! and every caller is equal:
//! - the window draws [`Club`] through [`ClubShared::lock`] and sends [`ClubCommand`]s; it
//!   builds no host and starts no server;
//! - the tables' pages reach it through the server's [`TablesHost`] (`ClubHandle`), on the
//!   server's own threads, and are answered once their change is on disk;
//! - the command line, in a folder nobody hosts, makes a short-lived owner of its own; in a
//!   folder a host holds, it hands its command to that host over loopback
//!   ([`crate::server::control`], the [`Relayed`] command), so the host's copy stays the one
//!   copy.
//!
//! **One owner per folder.** The owner holds the folder's club lock ([`ClubStore`]) for as long
//! as it owns anything: a second host refuses at once, naming the port that serves the folder.
//!
//! **Nothing waits on a frame, and no sync runs on the caller's thread**: every write goes to
//! the owner's writer thread ([`Saver`], the same code as the evening's), each applied command
//! first to the event's log, then the event; a page or the command line waits for its ticket.
//! Every change is pushed to the TV and the tables' pages at once ([`TvServer::publish`]).

mod command;
pub mod desk;
mod handle;
pub mod season;
mod tables;
pub mod words;

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};

pub use command::{
    ClubCommand, ClubDone, ClubRefusal, Did, LinkPick, RelayAnswer, Relayed, RelayedAsk, SeasonAsk,
};
pub use desk::{
    AskPath, EventSummary, ExportReport, MakeBytes, SeasonReport, SeasonSummary, Seasons,
};

use crate::event::live::{Actor, TableCommand, TablesAtPlay};
use crate::event::{Command, Event, EventSetup, LogEntry, Outcome, Refusal, read_players};
use crate::lang::Language;
use crate::score::table::{line, read_score_csv};
use crate::server::Secret;
use crate::server::control::ControlServer;
use crate::server::tv::{
    TV_MAX_CONNECTIONS, TablesHost, TvDivision, TvGame, TvOptions, TvSeason, TvServer, TvSettling,
    TvStanding, TvTable, TvView,
};
use crate::store::saver::{Job, SaveStatus, Saver, Ticket, Urgency, Waited};
use crate::store::{
    ClubLockError, ClubStore, Damage, EventId, Holder, HolderKind, LogLine, Notice, Store,
    StoreError,
};
use desk::Desk;
use handle::ClubHandle;
use tables::Tables;

/// How long a page or a relayed command waits for its change to reach the disk before it is
/// told it is not saved yet (the writer keeps trying).
pub const SAVE_WAIT: Duration = Duration::from_secs(10);

/// How long a command line command waits for a folder another command holds for a moment.
pub const LOCK_WAIT: Duration = Duration::from_secs(10);

/// How long a second host waits for a starting host to name its port.
const HOLDER_SETTLES: Duration = Duration::from_secs(3);

/// The wall clock (round clocks, new events' ids).
pub type WallClock = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

/// What the owner is made with.
pub struct ClubOptions {
    /// The data folder, or why there is none.
    pub dir: Result<PathBuf, Arc<StoreError>>,
    /// What the owner is (a window, `event serve`, a command).
    pub kind: HolderKind,
    /// The language the TV page and the rules line use unless a page asks for another.
    pub lang: Language,
    /// The wall clock.
    pub wall: WallClock,
    /// Asks the window for a frame (a no-op without one).
    pub repaint: Arc<dyn Fn() + Send + Sync>,
}

impl ClubOptions {
    /// An owner of the data folder `dir` as `kind`, with the real wall clock and no window.
    pub fn new(dir: &Path, kind: HolderKind, lang: Language) -> ClubOptions {
        ClubOptions {
            dir: Ok(dir.to_path_buf()),
            kind,
            lang,
            wall: Arc::new(Utc::now),
            repaint: Arc::new(|| {}),
        }
    }
}

/// Something the organiser should read (the window shows it until dismissed; the command line
/// prints it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClubNotice {
    /// An event's file was damaged and was restored; what the backup lacked is said.
    Damaged {
        /// The event.
        id: EventId,
        /// How it was restored.
        damage: Damage,
    },
    /// An event's file was behind its log (a command killed between the two writes): these
    /// commands were applied again.
    CaughtUp {
        /// The event.
        id: EventId,
        /// How many.
        commands: usize,
    },
    /// The tables-at-play file could not be used as it was (its backup was used, or it was set
    /// aside).
    Tables(Vec<Notice>),
}

/// One of the club's files waiting to be written.
#[derive(Debug)]
pub enum ClubJob {
    /// An event's whole log (made, or completed from the event).
    Log(EventId, Vec<LogLine>),
    /// A command appended to an event's log.
    Append(EventId, LogEntry),
    /// An event.
    Event(EventId, Arc<Event>),
    /// The tables at play of an event's current round.
    Tables(EventId, Arc<TablesAtPlay>),
}

impl Job for ClubJob {
    type Place = ClubStore;
    const KINDS: usize = 3;

    fn same_file(&self, other: &ClubJob) -> bool {
        match (self, other) {
            (ClubJob::Log(a, _), ClubJob::Log(b, _))
            | (ClubJob::Event(a, _), ClubJob::Event(b, _))
            | (ClubJob::Tables(a, _), ClubJob::Tables(b, _)) => a == b,
            // An append replaces nothing.
            _ => false,
        }
    }

    /// The log first, then the event, then the tables: what the event holds is in its log.
    fn order(&self) -> u8 {
        match self {
            ClubJob::Log(..) | ClubJob::Append(..) => 0,
            ClubJob::Event(..) => 1,
            ClubJob::Tables(..) => 2,
        }
    }

    /// Logs 0, events 1, tables 2.
    fn kind(&self) -> usize {
        match self {
            ClubJob::Log(..) | ClubJob::Append(..) => 0,
            ClubJob::Event(..) => 1,
            ClubJob::Tables(..) => 2,
        }
    }

    fn write(&self, store: &ClubStore) -> Result<Vec<Notice>, StoreError> {
        match self {
            ClubJob::Log(id, lines) => store.write_log(id, lines).map(|()| Vec::new()),
            ClubJob::Append(id, entry) => store.append_log(id, entry).map(|()| Vec::new()),
            ClubJob::Event(id, event) => store.save_event(id, event),
            ClubJob::Tables(id, tables) => store.save_event_live(id, tables),
        }
    }

    fn writable(_: &ClubStore) -> bool {
        true
    }
}

/// While the owner holds its folder.
struct Owner {
    /// The loopback listener for the command line (hosts only; dropped first).
    control: Option<ControlServer>,
    /// The writer (it holds the folder's club store, and with it the lock).
    saver: Arc<Saver<ClubJob>>,
    /// Who the lock says holds it.
    holder: Holder,
}

impl Owner {
    fn store(&self) -> &ClubStore {
        self.saver.place()
    }

    fn push(&self, job: ClubJob) -> Ticket {
        self.saver.push(job, Urgency::Now)
    }
}

/// The open event.
struct Open {
    id: EventId,
    event: Arc<Event>,
    tables: Tables,
    hosting: Option<Hosting>,
}

struct Hosting {
    server: TvServer,
    url: String,
}

/// What the window shows of the owner's writing.
#[derive(Clone, Debug, Default)]
pub struct Saving {
    /// A change not on disk yet.
    pub unsaved: bool,
    /// Writing fails (it is retried): why.
    pub failing: Option<SaveStatus>,
}

/// The club night's owner; see the [module docs](self).
pub struct Club {
    dir: Result<PathBuf, Arc<StoreError>>,
    kind: HolderKind,
    lang: Language,
    owner: Option<Owner>,
    open: Option<Open>,
    desk: Desk,
    notices: Vec<ClubNotice>,
    /// The ids of events this owner made (their files may not be written yet).
    made: Vec<EventId>,
    /// The season the TV shows, as read when asked.
    shown_season: Option<(crate::store::SeasonId, crate::event::season::Season)>,
    /// The newest state of each event this owner had open and closed (its files may lag a
    /// moment behind the writer): reopened from here, never from a file about to be replaced.
    recent: std::collections::BTreeMap<EventId, (Arc<Event>, TablesAtPlay)>,
    /// The last ticket handed out (the window shows "saving…" until it is on disk).
    last_ticket: Option<Ticket>,
    epoch: Instant,
    wall: WallClock,
    repaint: Arc<dyn Fn() + Send + Sync>,
    this: Weak<Mutex<Club>>,
}

impl std::fmt::Debug for Club {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Club")
            .field("open", &self.open.as_ref().map(|o| &o.id))
            .finish_non_exhaustive()
    }
}

impl Club {
    /// The owner's clock: time since it was made (the tables' clocks run on it).
    pub fn now(&self) -> Duration {
        self.epoch.elapsed()
    }

    /// The data folder, if there is one.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref().ok()
    }

    /// The open event and its id (the one copy; the tables may record a result in it).
    pub fn open_event(&self) -> Option<(&EventId, &Arc<Event>)> {
        self.open.as_ref().map(|o| (&o.id, &o.event))
    }

    /// The events of the newest listing read ([`ClubCommand::Refresh`]).
    pub fn known(&self) -> Arc<[EventSummary]> {
        self.desk.known()
    }

    /// Whether the events' list is being read.
    pub fn listing(&self) -> bool {
        self.desk.listing()
    }

    /// The TV page's link while the tables are hosted.
    pub fn hosting(&self) -> Option<&str> {
        self.open
            .as_ref()
            .and_then(|o| o.hosting.as_ref())
            .map(|h| h.url.as_str())
    }

    /// Where the tables are served while they are hosted.
    pub fn hosting_addr(&self) -> Option<SocketAddr> {
        self.open
            .as_ref()
            .and_then(|o| o.hosting.as_ref())
            .map(|h| h.server.local_addr())
    }

    /// A table's link as its QR code carries it, while hosted.
    pub fn table_link(&self, table: u32) -> Option<String> {
        let open = self.open.as_ref()?;
        let hosting = open.hosting.as_ref()?;
        let view = self.tv_view()?;
        let t = view.tables.iter().find(|t| t.table == table)?;
        Some(hosting.server.table_url(t))
    }

    /// What the writer is doing.
    pub fn saving(&self) -> Saving {
        let Some(owner) = &self.owner else {
            return Saving::default();
        };
        Saving {
            unsaved: owner.saver.pending(),
            failing: owner.saver.status(),
        }
    }

    /// The writer, while the owner holds its folder (tests wait on it).
    pub fn saver(&self) -> Option<&Arc<Saver<ClubJob>>> {
        self.owner.as_ref().map(|o| &o.saver)
    }

    /// What the organiser should read.
    pub fn notices(&self) -> &[ClubNotice] {
        &self.notices
    }

    /// Drops the notices (read).
    pub fn dismiss_notices(&mut self) {
        self.notices.clear();
    }

    /// The last export's report, while it is worth showing.
    pub fn export_report(&self) -> Option<ExportReport> {
        self.desk.report()
    }

    /// The language the TV and the rules line use.
    pub fn set_language(&mut self, lang: Language) {
        if self.lang != lang {
            self.lang = lang;
            self.publish();
        }
    }

    /// Exports `bytes` named like `name` (see [`desk::Desk::export`]).
    pub fn export(&self, name: &str, bytes: Vec<u8>, ask: Option<AskPath>) {
        self.desk.export(self.dir(), name, bytes, ask);
    }

    /// Exports what `make` makes (see [`desk::Desk::export_made`]).
    pub fn export_made(&self, name: &str, make: MakeBytes, ask: Option<AskPath>) {
        self.desk.export_made(self.dir(), name, make, ask);
    }

    /// The seasons as last read (the Season view asks for them with [`SeasonAsk::List`]).
    pub fn seasons(&self) -> Arc<Seasons> {
        self.desk.seasons()
    }

    /// How the last season's work went.
    pub fn season_report(&self) -> Option<SeasonReport> {
        self.desk.season_report()
    }

    /// The season the TV shows.
    pub fn shown_season(&self) -> Option<&crate::store::SeasonId> {
        self.shown_season.as_ref().map(|(id, _)| id)
    }

    /// The tables at play of the open event's current round (for the window).
    pub fn tables_at_play(&self) -> Option<&TablesAtPlay> {
        self.open.as_ref().map(|o| o.tables.kept())
    }

    /// Takes in what the writer reported since the last look (a damaged file set aside).
    fn refresh(&mut self) {
        let Some(owner) = &self.owner else { return };
        for report in owner.saver.take_reports() {
            if let Notice::SetAside { file, moved_to, .. } = &report {
                for notice in &mut self.notices {
                    if let ClubNotice::Damaged { damage, .. } = notice
                        && damage.file == *file
                    {
                        damage.kept_as = Some(moved_to.clone());
                    }
                }
            }
        }
    }

    /// Applies one command: all of it, or nothing and the reason. The TV and the tables'
    /// pages are shown the result at once; the window is asked for a frame.
    pub fn apply(&mut self, command: ClubCommand) -> Result<ClubDone, ClubRefusal> {
        self.refresh();
        let quiet = matches!(command, ClubCommand::Refresh);
        if !quiet {
            self.desk.clear_export();
        }
        let done = self.carry_out(command);
        if let Ok(ClubDone {
            ticket: Some(ticket),
            ..
        }) = &done
        {
            self.last_ticket = Some(*ticket);
        }
        self.publish();
        (self.repaint)();
        done
    }

    fn carry_out(&mut self, command: ClubCommand) -> Result<ClubDone, ClubRefusal> {
        match command {
            ClubCommand::Create {
                setup,
                players,
                open,
            } => self.create(*setup, &players, open),
            ClubCommand::Open(id) => self.open(&id),
            ClubCommand::Close => {
                self.close();
                Ok(done(Did::Closed))
            }
            ClubCommand::Refresh => {
                self.refresh_list()?;
                Ok(done(Did::Nothing))
            }
            ClubCommand::Event(command) => self.event_command(command),
            ClubCommand::EnterResult {
                round,
                table,
                cells,
                correct,
            } => self.enter_result(round, table, &cells, correct),
            ClubCommand::Table {
                table,
                key,
                actor,
                command,
            } => self.table(table, key.as_deref(), &actor, command),
            ClubCommand::Host {
                bind,
                link,
                round_minutes,
            } => self.host(bind, link, round_minutes),
            ClubCommand::Season(ask) => self.season(ask),
            ClubCommand::StopHosting => {
                if let Some(open) = &mut self.open {
                    open.hosting = None;
                }
                self.say_who_holds();
                Ok(done(Did::NotHosting))
            }
        }
    }

    /// A season's work: reads and writes on the desk's threads (never the caller's); showing
    /// one on the TV reads its small file here.
    fn season(&mut self, ask: SeasonAsk) -> Result<ClubDone, ClubRefusal> {
        let dir = self.dir.clone().map_err(|_| ClubRefusal::NoDataFolder)?;
        let lang = self.lang;
        match ask {
            SeasonAsk::List => self.desk.list_seasons(&dir),
            SeasonAsk::New { name, points, best } => {
                let now = (self.wall)();
                self.desk.season_work(&dir, move |dir| {
                    let made = season::points_rule(Some(&points), lang)
                        .and_then(|points| season::create(dir, &name, points, best, now, lang));
                    match made {
                        Ok((id, _)) => SeasonReport::Created(id),
                        Err(why) => SeasonReport::Failed(why),
                    }
                });
            }
            SeasonAsk::Import { season: id, files } => {
                self.desk.season_work(&dir, move |dir| {
                    match season::import(dir, Some(id.as_str()), &files, lang) {
                        Ok((_, done)) => SeasonReport::Imported(desk::imported_lines(lang, &done)),
                        Err(refused) => SeasonReport::Refused(refused.messages),
                    }
                });
            }
            SeasonAsk::Export { ask } => {
                let open = self.open.as_ref().ok_or(ClubRefusal::NotOpen)?;
                let (id, event) = (open.id.clone(), Arc::clone(&open.event));
                let now = (self.wall)();
                let name = format!("{id}.bundle.json");
                let make: MakeBytes = Box::new(move || {
                    season::seal(&dir, None, id.as_str(), &event, now)
                        .map(|(_, text)| text.into_bytes())
                        .map_err(|e| std::io::Error::other(e.to_string()))
                });
                self.export_made(&name, make, ask);
            }
            SeasonAsk::Show(None) => self.shown_season = None,
            SeasonAsk::Show(Some(id)) => {
                let loaded = Store::open_reader(&dir).load_season(&id)?;
                self.shown_season = Some((id, loaded.value));
            }
        }
        Ok(done(Did::Nothing))
    }

    /// Holds the folder (its club lock), if it does not yet.
    fn hold(&mut self) -> Result<&Owner, ClubRefusal> {
        if self.owner.is_none() {
            let dir = self.dir.clone().map_err(|_| ClubRefusal::NoDataFolder)?;
            let holder = Holder {
                pid: std::process::id(),
                kind: self.kind,
                ..Holder::default()
            };
            // A command or `event serve` waits a moment for a command that holds the folder;
            // the window never waits on its own thread.
            let store = match self.kind {
                HolderKind::Window => ClubStore::open(&dir, &holder),
                _ => ClubStore::open_waiting(&dir, &holder, LOCK_WAIT),
            }
            .map_err(|e| match e {
                ClubLockError::Held(holder) => ClubRefusal::Held(self.settled_holder(&dir, holder)),
                ClubLockError::Store(e) => ClubRefusal::from(e),
            })?;
            let repaint = Arc::clone(&self.repaint);
            let saver = Arc::new(Saver::start(store, "club-saver", move || repaint()));
            let mut owner = Owner {
                control: None,
                saver,
                holder,
            };
            if self.kind != HolderKind::Command
                && let Ok(secret) = Secret::random()
            {
                let handler = handle::control_handler(self.this.clone());
                if let Ok(control) = ControlServer::start(secret.clone(), handler) {
                    owner.holder.control = Some(control.port());
                    owner.holder.secret = Some(secret.as_str().to_owned());
                    owner.control = Some(control);
                }
            }
            let _ = owner.store().set_holder(&owner.holder);
            self.owner = Some(owner);
        }
        self.owner.as_ref().ok_or(ClubRefusal::NoDataFolder)
    }

    /// Who holds the folder, once it says where it serves: a host that is still starting has
    /// taken the lock but not yet named its port, and a second host must name it. Asked again
    /// for up to [`HOLDER_SETTLES`] (not by the window, which never waits).
    fn settled_holder(&self, dir: &Path, holder: Option<Holder>) -> Option<Holder> {
        let starting = |h: &Option<Holder>| {
            h.as_ref()
                .is_some_and(|h| h.kind == HolderKind::Serve && h.tables.is_none())
        };
        if self.kind == HolderKind::Window || !starting(&holder) {
            return holder;
        }
        let until = Instant::now() + HOLDER_SETTLES;
        let mut holder = holder;
        while starting(&holder) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(50));
            holder = ClubStore::holder(dir).or(holder);
        }
        holder
    }

    /// Lets the folder go when nothing is open (a window that closed its event; a command
    /// done). What waits is written first.
    fn let_go(&mut self) {
        if self.open.is_none() {
            // What waits is written as the writer stops; the next owner reads the files.
            self.owner = None;
            self.recent.clear();
        }
    }

    /// Writes in the lock who holds the folder now (a host's tables port).
    fn say_who_holds(&mut self) {
        let tables = self.hosting_addr().map(|a| a.port());
        if let Some(owner) = &mut self.owner {
            owner.holder.tables = tables;
            let _ = owner.store().set_holder(&owner.holder);
        }
    }

    fn refresh_list(&mut self) -> Result<(), ClubRefusal> {
        let dir = self.dir.clone().map_err(|_| ClubRefusal::NoDataFolder)?;
        let reader = Store::open_reader(&dir);
        let ids = reader.list_events().map_err(|e| {
            ClubRefusal::from(StoreError::Folder {
                dir: dir.join(crate::store::EVENTS_DIR),
                source: e,
            })
        })?;
        let latest: Vec<(EventId, Arc<Event>)> = self
            .open
            .iter()
            .map(|o| (o.id.clone(), Arc::clone(&o.event)))
            .collect();
        self.desk.refresh(&dir, ids, latest);
        Ok(())
    }

    fn create(
        &mut self,
        setup: EventSetup,
        players: &str,
        open: bool,
    ) -> Result<ClubDone, ClubRefusal> {
        let lines = read_players(players);
        if lines.is_empty() {
            return Err(ClubRefusal::NoPlayers);
        }
        let mut event = Event::new(setup)?;
        for entry in lines {
            let line = entry.line;
            event
                .apply(entry.command())
                .map_err(|why| ClubRefusal::PlayersLine { line, why })?;
        }
        let now = (self.wall)();
        if open {
            self.close_open();
        }
        let made = self.made.clone();
        let owner = self.hold()?;
        let id = owner
            .store()
            .store()
            .new_event_id_besides(now, |id| made.contains(id));
        let lines = log_lines(&event);
        owner.push(ClubJob::Log(id.clone(), lines));
        let event = Arc::new(event);
        let ticket = owner.push(ClubJob::Event(id.clone(), Arc::clone(&event)));
        self.made.push(id.clone());
        if open {
            self.open = Some(Open {
                id: id.clone(),
                event,
                tables: Tables::restored(None),
                hosting: None,
            });
        }
        Ok(ClubDone {
            did: Did::Created(id),
            ticket: Some(ticket),
        })
    }

    fn close_open(&mut self) {
        if let Some(open) = self.open.take() {
            self.recent
                .insert(open.id, (open.event, open.tables.kept().clone()));
        }
    }

    fn close(&mut self) {
        self.close_open();
        self.let_go();
    }

    fn open(&mut self, id: &EventId) -> Result<ClubDone, ClubRefusal> {
        if self.open.as_ref().is_some_and(|o| o.id == *id) {
            return Ok(done(Did::Opened(id.clone())));
        }
        self.close_open();
        let now = (self.wall)();
        if let Some((event, kept)) = self.recent.remove(id) {
            let mut tables = Tables::restored(Some(kept));
            tables.sync(&event, now);
            self.open = Some(Open {
                id: id.clone(),
                event,
                tables,
                hosting: None,
            });
            return Ok(done(Did::Opened(id.clone())));
        }
        let owner = self.hold()?;
        let loaded = match owner.store().load_event(id) {
            Ok(loaded) => loaded,
            Err(e) => {
                self.let_go();
                return Err(e.into());
            }
        };
        let owner = self.owner.as_ref().ok_or(ClubRefusal::NoDataFolder)?;
        let event = Arc::new(loaded.event);
        let mut ticket = None;
        if loaded.log_needed {
            ticket = Some(owner.push(ClubJob::Log(id.clone(), log_lines(&event))));
        }
        if loaded.damage.is_some() || !loaded.caught_up.is_empty() {
            ticket = Some(owner.push(ClubJob::Event(id.clone(), Arc::clone(&event))));
        }
        let live = owner.store().load_event_live(id);
        let mut tables = Tables::restored(live.value.filter(|t| t.round == event.current_round()));
        if tables.sync(&event, now) {
            ticket = Some(owner.push(ClubJob::Tables(id.clone(), Arc::new(tables.kept().clone()))));
        }
        if let Some(damage) = loaded.damage {
            self.notices.push(ClubNotice::Damaged {
                id: id.clone(),
                damage,
            });
        }
        if !loaded.caught_up.is_empty() {
            self.notices.push(ClubNotice::CaughtUp {
                id: id.clone(),
                commands: loaded.caught_up.len(),
            });
        }
        if !live.notices.is_empty() {
            self.notices.push(ClubNotice::Tables(live.notices));
        }
        self.open = Some(Open {
            id: id.clone(),
            event,
            tables,
            hosting: None,
        });
        Ok(ClubDone {
            did: Did::Opened(id.clone()),
            ticket,
        })
    }

    /// Applies an event command to the open event: into its log, then the event, both to the
    /// writer; a new round gets its tables (and keys).
    fn commit(&mut self, command: Command) -> Result<(Outcome, Ticket), ClubRefusal> {
        let now = (self.wall)();
        let owner = self.owner.as_ref().ok_or(ClubRefusal::NotOpen)?;
        let open = self.open.as_mut().ok_or(ClubRefusal::NotOpen)?;
        let mut next = Event::clone(&open.event);
        let outcome = next.apply(command)?;
        if let Some(entry) = next.log().last() {
            owner.push(ClubJob::Append(open.id.clone(), entry.clone()));
        }
        let next = Arc::new(next);
        let mut ticket = owner.push(ClubJob::Event(open.id.clone(), Arc::clone(&next)));
        open.event = next;
        if open.tables.sync(&open.event, now) {
            ticket = owner.push(ClubJob::Tables(
                open.id.clone(),
                Arc::new(open.tables.kept().clone()),
            ));
        }
        Ok((outcome, ticket))
    }

    fn event_command(&mut self, command: Command) -> Result<ClubDone, ClubRefusal> {
        let (outcome, ticket) = self.commit(command)?;
        Ok(ClubDone {
            did: Did::Event(outcome),
            ticket: Some(ticket),
        })
    }

    /// A table's games as typed, read exactly as `event result` reads its CSV, then checked
    /// by the engine.
    fn enter_result(
        &mut self,
        round: u32,
        table: u32,
        cells: &[Vec<String>],
        correct: bool,
    ) -> Result<ClubDone, ClubRefusal> {
        let open = self.open.as_ref().ok_or(ClubRefusal::NotOpen)?;
        let event = &open.event;
        let seated_round = event
            .rounds()
            .iter()
            .find(|r| r.number == round)
            .ok_or(Refusal::NoSuchRound(round))?;
        let seated = seated_round
            .tables
            .iter()
            .find(|t| t.number == table)
            .ok_or(Refusal::NoSuchTable {
                round,
                table,
                tables: seated_round.tables.len(),
            })?;
        let names = event.seat_names(seated);
        let rules = event.table_rules(seated);
        let mut csv = line(std::iter::once("game".to_owned()).chain(names.iter().cloned()));
        for (n, row) in cells.iter().enumerate() {
            csv.push_str(&line(
                std::iter::once((n + 1).to_string()).chain(row.iter().map(|c| c.trim().to_owned())),
            ));
        }
        let imported = read_score_csv(&csv, rules, (self.wall)()).map_err(ClubRefusal::Cells)?;
        self.event_command(Command::Result {
            round: Some(round),
            table,
            players: imported.sheet.players().names().to_vec(),
            games: imported.sheet.games().to_vec(),
            correct,
        })
    }

    fn table(
        &mut self,
        table: u32,
        key: Option<&str>,
        actor: &Actor,
        command: TableCommand,
    ) -> Result<ClubDone, ClubRefusal> {
        let now = self.now();
        let open = self.open.as_ref().ok_or(ClubRefusal::NotOpen)?;
        let tried = open
            .tables
            .try_act(&open.event, table, key, actor, command, now)?;
        let done_now = tried.done.clone();
        let result = tried.result.clone();
        let changes = tried.done.changes_games();
        // The round's last game: into the event first (a result the organiser entered
        // meanwhile stands).
        let mut ticket = None;
        if let Some(result) = result {
            match self.commit(result) {
                Ok((_, t)) => ticket = Some(t),
                Err(ClubRefusal::Event(Refusal::AlreadyRecorded { .. })) => {}
                Err(e) => return Err(e),
            }
        }
        let owner = self.owner.as_ref().ok_or(ClubRefusal::NotOpen)?;
        let open = self.open.as_mut().ok_or(ClubRefusal::NotOpen)?;
        if open.tables.keep(tried) || changes {
            ticket = Some(owner.push(ClubJob::Tables(
                open.id.clone(),
                Arc::new(open.tables.kept().clone()),
            )));
        }
        let device = match (actor, &done_now) {
            (Actor::Device(d), crate::event::live::TableDone::Claimed { .. }) => Some(d.clone()),
            _ => None,
        };
        Ok(ClubDone {
            did: Did::Table {
                done: done_now,
                device,
            },
            ticket,
        })
    }

    fn host(
        &mut self,
        bind: SocketAddr,
        link: LinkPick,
        round_minutes: Option<u32>,
    ) -> Result<ClubDone, ClubRefusal> {
        let wall = (self.wall)();
        let lang = self.lang;
        let handle: Arc<dyn TablesHost> = Arc::new(ClubHandle::new(self.this.clone(), self.epoch));
        let owner = self.owner.as_ref().ok_or(ClubRefusal::NotOpen)?;
        let open = self.open.as_mut().ok_or(ClubRefusal::NotOpen)?;
        open.hosting = None;
        let mut ticket = None;
        if open.tables.set_round_minutes(round_minutes, wall) {
            ticket = Some(owner.push(ClubJob::Tables(
                open.id.clone(),
                Arc::new(open.tables.kept().clone()),
            )));
        }
        let first = self.tv_view().unwrap_or_default();
        let start = |bind: SocketAddr| -> Result<TvServer, ClubRefusal> {
            let link_host = match &link {
                LinkPick::Address(ip) => *ip,
                LinkPick::Reachable { list, prefer } => crate::server::LinkChoice::of(list(bind))
                    .pick(*prefer)
                    .ok_or(ClubRefusal::NoReachableAddress)?,
            };
            let options = TvOptions {
                bind,
                lang,
                link_host,
                max_connections: TV_MAX_CONNECTIONS,
            };
            TvServer::start(options, Arc::clone(&handle), first.clone()).map_err(|e| {
                ClubRefusal::Listen {
                    address: bind.to_string(),
                    error: crate::i18n::io_error(lang, &e),
                }
            })
        };
        // Every interface, IPv6 and IPv4 (a dual-stack `::`); a machine without IPv6 listens
        // on IPv4's `0.0.0.0` alone, and the link is picked for what it listens on.
        let server = match start(bind) {
            Err(ClubRefusal::Listen { .. }) if bind.is_ipv6() && bind.ip().is_unspecified() => {
                start(SocketAddr::from((
                    std::net::Ipv4Addr::UNSPECIFIED,
                    bind.port(),
                )))?
            }
            started => started?,
        };
        let url = server.url();
        if let Some(open) = &mut self.open {
            open.hosting = Some(Hosting {
                server,
                url: url.clone(),
            });
        }
        self.say_who_holds();
        Ok(ClubDone {
            did: Did::Hosting { url },
            ticket,
        })
    }

    /// Shows the pages what is now (they are sent only what changed for them).
    fn publish(&self) {
        let Some(hosting) = self.open.as_ref().and_then(|o| o.hosting.as_ref()) else {
            return;
        };
        if let Some(view) = self.tv_view() {
            hosting.server.publish(view);
        }
    }

    /// What the TV and the tables' pages show of the open event: the current round's tables
    /// (each table's clock, seats held, games, the game being settled, a finished table's
    /// games), the standings after the last complete round, the round clock.
    pub fn tv_view(&self) -> Option<TvView> {
        let open = self.open.as_ref()?;
        let event = &open.event;
        let now = self.now();
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let current = event.rounds().last();
        let mut tables = Vec::new();
        for (round, t) in current
            .iter()
            .flat_map(|r| r.tables.iter().map(move |t| (*r, t)))
        {
            let players = event.seat_names(t);
            let starts: Vec<usize> = event
                .starters(round, t)
                .iter()
                .filter_map(|p| t.seats.iter().position(|s| s == p))
                .collect();
            let mut view = TvTable {
                table: t.number,
                players,
                starts,
                finished: t.is_finished(),
                games_done: t.result().map_or(0, |r| r.games.len()),
                games: event.round_games(round),
                key: open.tables.key(t.number).unwrap_or_default().to_owned(),
                ..TvTable::default()
            };
            if let Some(result) = t.result()
                && let Ok(players) = crate::score::Players::new(event.seat_names(t))
            {
                let rules = event.table_rules(t);
                view.results = result
                    .games
                    .iter()
                    .filter_map(|g| g.score(&players, &rules).ok())
                    .map(|s| TvGame {
                        points: s.points,
                        winner: s.winner,
                    })
                    .collect();
            }
            if let Some(live) = open.tables.live().get(&t.number)
                && !view.finished
            {
                view.games_done = live.games().len();
                view.held = live.held();
                view.shared = live.shared_turns();
                view.devices = live.kept().devices.clone();
                let timer = live.timer();
                if timer.phase() != crate::timer::Phase::Idle {
                    view.turn = Some(timer.current_player());
                    view.turn_id = timer.turn_id();
                    view.running = live.is_running();
                    let left = timer.remaining(now);
                    if view.running {
                        // The same instant however late it is asked: when the turn began plus
                        // its length (the time over, once it ran out).
                        let at = if left.is_zero() {
                            now.saturating_sub(timer.overtime(now))
                        } else {
                            now + left
                        };
                        view.ends_at_ms = Some(ms(at));
                    } else {
                        view.left_ms = Some(ms(left));
                    }
                }
                view.settling = live.settling().map(|s| {
                    let game = live.game_number();
                    TvSettling {
                        game,
                        digest: s.digest(game),
                        went_out: match s.ending {
                            crate::event::live::Ending::WentOut(seat) => Some(seat),
                            _ => None,
                        },
                        racks: s
                            .hands
                            .iter()
                            .map(|h| h.as_ref().map(|h| h.left.to_string()))
                            .collect(),
                        not_melded: s
                            .hands
                            .iter()
                            .map(|h| h.as_ref().is_some_and(|h| h.not_melded))
                            .collect(),
                        winner: s.winner,
                        confirmed: s.confirmed.clone(),
                        points: live
                            .settling_score()
                            .and_then(Result::ok)
                            .map(|scored| scored.points),
                        hands: s.hands.clone(),
                        problem: live.settling_score().and_then(Result::err),
                    }
                });
            }
            tables.push(view);
        }
        let playing = tables
            .iter()
            .filter(|t| !t.finished)
            .map(|t| t.table)
            .collect();
        let standings_round = event
            .rounds()
            .iter()
            .rev()
            .find(|r| r.is_complete())
            .map_or(0, |r| r.number);
        let placement = event.setup().ranking == crate::event::Ranking::Placement;
        let rows = |standings: crate::event::Standings| -> Vec<TvStanding> {
            standings
                .rows
                .into_iter()
                .map(|s| TvStanding {
                    rank: s.rank,
                    name: s.name,
                    wins: s.wins,
                    points: s.points,
                    games: s.games,
                    placement: placement.then_some(s.placement),
                })
                .collect()
        };
        let (standings, divisions) = if standings_round == 0 {
            (Vec::new(), Vec::new())
        } else {
            let through = event.standings_through(standings_round);
            let early = {
                let mut early = Event::clone(event);
                early.retain_rounds(standings_round);
                early
            };
            let divisions = event
                .divisions()
                .into_iter()
                .map(|name| TvDivision {
                    standings: rows(early.division_standings(event.setup().ranking, &name)),
                    name,
                })
                .collect();
            (rows(through), divisions)
        };
        let season = self.shown_season.as_ref().map(|(_, season)| TvSeason {
            name: season.name.clone(),
            events: season.events.len(),
            rows: season
                .standings()
                .into_iter()
                .map(|l| (l.rank, l.name, l.club, l.points, l.events))
                .collect(),
        });
        let round_ends_at_ms = open.tables.round_ends().map(|ends| {
            let left = (ends - (self.wall)()).to_std().unwrap_or(Duration::ZERO);
            ms(now + left)
        });
        Some(TvView {
            name: event.setup().name.clone(),
            round: event.current_round(),
            complete: current.is_some_and(|r| r.is_complete()),
            tables,
            playing,
            standings_round,
            standings,
            round_ends_at_ms,
            rules: event.setup().rules,
            stage: current.map_or(crate::event::Stage::Round, |r| r.stage),
            divisions,
            season,
        })
    }
}

fn done(did: Did) -> ClubDone {
    ClubDone { did, ticket: None }
}

/// An event's whole log: its setup, then every command.
fn log_lines(event: &Event) -> Vec<LogLine> {
    std::iter::once(LogLine::Setup {
        setup: event.setup().clone(),
    })
    .chain(event.log().iter().cloned().map(LogLine::Entry))
    .collect()
}

/// The club night shared by the window, the servers and the command line.
#[derive(Clone)]
pub struct ClubShared {
    club: Arc<Mutex<Club>>,
}

impl std::fmt::Debug for ClubShared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClubShared").finish_non_exhaustive()
    }
}

impl ClubShared {
    /// A new owner (holding nothing until an event is made or opened).
    pub fn new(options: ClubOptions) -> ClubShared {
        let repaint = Arc::clone(&options.repaint);
        let club = Arc::new_cyclic(|this| {
            Mutex::new(Club {
                dir: options.dir,
                kind: options.kind,
                lang: options.lang,
                owner: None,
                open: None,
                desk: Desk::new(move || repaint()),
                notices: Vec::new(),
                made: Vec::new(),
                shown_season: None,
                recent: std::collections::BTreeMap::new(),
                last_ticket: None,
                epoch: Instant::now(),
                wall: options.wall,
                repaint: options.repaint,
                this: this.clone(),
            })
        });
        ClubShared { club }
    }

    /// The owner, locked, with what the writer reported taken in. Hold it for one frame's
    /// drawing at most: the pages wait for it.
    pub fn lock(&self) -> MutexGuard<'_, Club> {
        let mut club = self.club.lock().unwrap_or_else(|e| e.into_inner());
        club.refresh();
        club
    }

    /// The open event and its id (a copy of the handle: the event itself is shared).
    pub fn open_event(&self) -> Option<(EventId, Arc<Event>)> {
        self.lock()
            .open_event()
            .map(|(id, event)| (id.clone(), Arc::clone(event)))
    }

    /// The events of the newest listing read.
    pub fn known(&self) -> Arc<[EventSummary]> {
        self.lock().known()
    }

    /// Applies one command (see [`Club::apply`]).
    pub fn apply(&self, command: ClubCommand) -> Result<ClubDone, ClubRefusal> {
        self.lock().apply(command)
    }

    /// Applies one command, then waits up to `timeout` (outside the lock) for what it changed
    /// to reach the disk.
    pub fn apply_and_wait(
        &self,
        command: ClubCommand,
        timeout: Duration,
    ) -> (Result<ClubDone, ClubRefusal>, Waited) {
        let (done, saver) = {
            let mut club = self.lock();
            let done = club.apply(command);
            (done, club.saver().cloned())
        };
        let waited = match (&done, saver) {
            (
                Ok(ClubDone {
                    ticket: Some(ticket),
                    ..
                }),
                Some(saver),
            ) => saver.wait(*ticket, timeout),
            _ => Waited::Saved,
        };
        (done, waited)
    }

    /// Waits (at most `timeout`) until every change is on disk and every export and listing
    /// done; true when they are.
    pub fn flush(&self, timeout: Duration) -> bool {
        let (saver, until) = (self.lock().saver().cloned(), Instant::now() + timeout);
        let saved = saver.is_none_or(|s| s.flush(timeout) == Waited::Saved);
        let left = until.saturating_duration_since(Instant::now());
        let desk = self.lock().desk.flush(left);
        saved && desk
    }
}
