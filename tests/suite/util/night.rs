//! A real evening on a data folder and a manual clock, driven as the window and the phones
//! drive it (through commands), with no window: the table's promises are tested here.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use rummikub_companion::evening::{
    Command, Deps, Done, DraftEdit, Evening, Refusal, SavedEvening, Shared, Waited,
};
use rummikub_companion::lang::Language;
use rummikub_companion::runtime::ManualClock;
use rummikub_companion::sound::RecordingSounder;
use rummikub_companion::store::Store;
use rummikub_companion::timer::Timer;

/// An evening and what it runs on.
pub struct Night {
    pub evening: Shared,
    pub clock: Arc<ManualClock>,
    pub sounder: Arc<RecordingSounder>,
    pub data: Folder,
}

/// A data folder: a temporary one (removed at the end), or one kept by someone else.
pub struct Folder {
    dir: std::path::PathBuf,
    _temp: Option<tempfile::TempDir>,
}

impl Folder {
    /// The folder.
    pub fn path(&self) -> &Path {
        &self.dir
    }
}

impl From<tempfile::TempDir> for Folder {
    fn from(temp: tempfile::TempDir) -> Folder {
        Folder {
            dir: temp.path().to_path_buf(),
            _temp: Some(temp),
        }
    }
}

/// Four players: 루미, 큐브, 퍼니, 알토.
pub const PLAYERS: [&str; 4] = ["루미", "큐브", "퍼니", "알토"];

impl Night {
    /// An evening on a fresh data folder, with these seats.
    pub fn with(players: &[&str]) -> Night {
        let night = Night::open(tempfile::tempdir().expect("a data folder"));
        let names = players.iter().map(|p| p.to_string()).collect();
        night.ok(Command::SetPlayers(names));
        night
    }

    /// Four players and a new open-ended sheet.
    pub fn with_sheet() -> Night {
        let night = Night::with(&PLAYERS);
        night.ok(Command::NewSheet {
            rounds: None,
            target: None,
        });
        night
    }

    /// The evening (again) on an existing data folder.
    pub fn open(data: impl Into<Folder>) -> Night {
        let data = data.into();
        let clock = Arc::new(ManualClock::default());
        let sounder = Arc::new(RecordingSounder::default());
        let deps = Deps::manual(clock.clone(), sounder.clone(), data.path());
        Night {
            evening: Shared::open(deps),
            clock,
            sounder,
            data,
        }
    }

    /// The evening on a folder someone else keeps (a child process's).
    pub fn open_kept(dir: &Path) -> Night {
        Night::open(Folder {
            dir: dir.to_path_buf(),
            _temp: None,
        })
    }

    /// The evening on `data` with a store given (a read-only one, say).
    pub fn on_store(store: Store, data: tempfile::TempDir) -> Night {
        let data = Folder::from(data);
        let clock = Arc::new(ManualClock::default());
        let sounder = Arc::new(RecordingSounder::default());
        let mut deps = Deps::manual(clock.clone(), sounder.clone(), data.path());
        deps.store = Ok(store);
        Night {
            evening: Shared::open(deps),
            clock,
            sounder,
            data,
        }
    }

    /// Closes the evening (what waits is written) and opens it again on the same folder.
    pub fn reopen(self) -> Night {
        self.settle();
        let Night { evening, data, .. } = self;
        drop(evening);
        Night::open(data)
    }

    /// A command, as the window gives it.
    pub fn apply(&self, command: Command) -> Result<Done, Refusal> {
        self.evening.apply(command)
    }

    /// A command that must be carried out; what it did.
    pub fn done(&self, command: Command) -> Done {
        let shown = format!("{command:?}");
        self.apply(command)
            .unwrap_or_else(|e| panic!("{shown} refused: {e}"))
    }

    /// A command that must be carried out.
    pub fn ok(&self, command: Command) {
        let _done = self.done(command);
    }

    /// The evening, locked.
    pub fn lock(&self) -> std::sync::MutexGuard<'_, Evening> {
        self.evening.lock()
    }

    /// Reads the timer now.
    pub fn timer<R>(&self, f: impl FnOnce(&Timer, Duration) -> R) -> R {
        self.lock().timer().read(f)
    }

    /// Types a whole game into the add-game form and saves it.
    /// (Returns what saving did.)
    pub fn game(&self, left: &[&str]) -> Done {
        self.ok(Command::AddGame);
        for (seat, text) in left.iter().enumerate() {
            self.ok(Command::Draft(DraftEdit::Left(seat, text.to_string())));
        }
        self.done(Command::SaveGame)
    }

    /// Waits until everything asked to be saved is on disk.
    pub fn settle(&self) {
        let saver = self.lock().saver().cloned();
        if let Some(saver) = saver {
            assert_eq!(saver.flush(Duration::from_secs(10)), Waited::Saved);
        }
    }

    /// The evening file as it is on disk now.
    pub fn saved(&self) -> SavedEvening {
        read_saved(self.data.path())
    }

    /// The notices' lines in English.
    pub fn notices(&self) -> Vec<String> {
        self.lock().notices().lines(Language::English)
    }

    /// Totals of the open sheet.
    pub fn totals(&self) -> Vec<i64> {
        self.lock().sheet().expect("a sheet").standings().totals
    }
}

/// The evening file of a data folder, read as `status` reads it.
pub fn read_saved(data: &Path) -> SavedEvening {
    Store::open_reader(data)
        .load_evening::<SavedEvening>()
        .value
}
