//! Saves a screenshot of every view in both languages, from the real window.
//!
//! Run by `scripts/screenshots.sh` under Xvfb: `cargo run --release --example screenshots -- DIR`.
//! The app runs on a fake clock (so the timer can be shown in its warning state) and a temporary
//! data folder holding seed 002's score sheet.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rummikub_companion::evening::{Command, DraftEdit};
use rummikub_companion::event::EventSetup;
use rummikub_companion::lang::Language;
use rummikub_companion::runtime::ManualClock;
use rummikub_companion::sound::SilentSounder;
use rummikub_companion::ui::app::{
    Action, EventRequest, MeldMode, SheetRequest, TimerCommand, View,
};
use rummikub_companion::ui::{App, AppDeps};

/// One screenshot: a file name and what to show.
struct Shot {
    name: String,
    language: Language,
    show: Action,
    /// The fake clock's reading (the turn started 41 s in).
    at: Duration,
    /// The table view's face-to-face layout.
    face_to_face: bool,
}

/// 52.3 s into 큐브's turn: the warning is on.
const WARNING: Duration = Duration::from_millis(41_000 + 52_300);
/// 3.2 s past the end of 큐브's turn, in the bright half of the time-up flash.
const TIME_UP: Duration = Duration::from_millis(41_000 + 63_200);

struct Shots {
    app: App,
    clock: Arc<ManualClock>,
    shots: Vec<Shot>,
    next: usize,
    frames: u32,
    out: PathBuf,
    taken: Arc<Mutex<Option<Arc<egui::ColorImage>>>>,
    _data: tempfile::TempDir,
}

const PLAYERS: [&str; 4] = ["루미", "큐브", "퍼니", "알토"];
const SEED_002: [[u32; 4]; 4] = [
    [0, 5, 16, 3],
    [6, 11, 0, 5],
    [32, 13, 2, 0],
    [0, 14, 16, 19],
];

/// Notation as the table writes it: Korean tile names for the Korean shots.
fn korean_if(language: Language, text: &str) -> String {
    if language != Language::Korean {
        return text.to_owned();
    }
    text.split(' ')
        .map(
            |word| match word.parse::<rummikub_companion::tile::Tile>() {
                Ok(tile) => rummikub_companion::i18n::tile(language, tile),
                Err(_) => word.to_owned(),
            },
        )
        .collect::<Vec<_>>()
        .join(" ")
}

fn shots() -> Vec<Shot> {
    let mut shots = Vec::new();
    for (language, code) in [(Language::English, "en"), (Language::Korean, "ko")] {
        let views = [
            ("timer", Action::Show(View::Timer)),
            (
                "meld",
                Action::Meld(MeldMode::Check, "R11 J R13 | K9 B9 O9 | R5 J J".into()),
            ),
            (
                "solve",
                Action::Meld(MeldMode::Solve, "K9 B9 O9 J R2 K5 R7 R8 R9 B1 O13".into()),
            ),
            ("sheet", Action::Show(View::Sheet)),
            ("settings", Action::Show(View::Settings)),
            ("event", Action::Show(View::Event)),
            (
                "whole-table",
                Action::WholeTable {
                    table: korean_if(language, "R3 R4 R5 R6 | B7 K7 O7 | K10 K11 J | O1 O2 O3"),
                    rack: korean_if(language, "R7 B5 B6 K12 O4 R13"),
                },
            ),
            (
                "referee",
                Action::Referee {
                    before: korean_if(language, "R5 R6 R7 | B9 K9 O9 | K1 K2 K3"),
                    after: korean_if(language, "R5 R6 R7 R8 | B9 K9 | K1 K2 K3 J"),
                    rack: korean_if(language, "R8 B2 O11"),
                },
            ),
        ];
        for (view, show) in views {
            shots.push(Shot {
                name: format!("{view}-{code}.png"),
                language,
                show,
                at: WARNING,
                face_to_face: false,
            });
        }
        for (view, at, face_to_face, show) in [
            (
                "history",
                WARNING,
                false,
                Action::Sheet(SheetRequest::History(true)),
            ),
            ("phones", WARNING, false, Action::Show(View::Settings)),
            ("strip-timeup", TIME_UP, false, Action::Show(View::Sheet)),
            ("table", WARNING, false, Action::Show(View::Table)),
            ("table-timeup", TIME_UP, false, Action::Show(View::Table)),
            (
                "table-face-to-face",
                TIME_UP,
                true,
                Action::Show(View::Table),
            ),
        ] {
            shots.push(Shot {
                name: format!("{view}-{code}.png"),
                language,
                show,
                at,
                face_to_face,
            });
        }
    }
    // The clock only goes forward: every language's warning shots before any time-up shot.
    shots.sort_by_key(|shot| shot.at);
    shots
}

/// A club night of 12 in the Event view: round 1 played and its standings released, round 2
/// seated with one table's result in.
fn club_night(app: &mut App, ctx: &egui::Context) {
    let names = [
        "가람", "나래", "다온", "라희", "Ann", "Bo", "Cy", "Di", "마루", "바다", "Ed", "Fa",
    ];
    let mut setup = EventSetup::new("목요 클럽 · Thursday club", 7);
    setup.games = 2;
    app.apply(
        ctx,
        Action::Event(EventRequest::Create {
            setup: Box::new(setup),
            players: names.join("\n"),
        }),
    );
    let mut rng = rummikub_companion::event::seating::Rng::new(11);
    for (round, tables) in [(1, 3), (2, 1)] {
        app.apply(ctx, Action::Event(EventRequest::Seat));
        for table in 1..=tables {
            let cells = (0..2)
                .map(|_| {
                    let out = rng.below(4) as usize;
                    (0..4)
                        .map(|seat| {
                            if seat == out {
                                "0".to_owned()
                            } else {
                                (1 + rng.below(40)).to_string()
                            }
                        })
                        .collect()
                })
                .collect();
            app.apply(
                ctx,
                Action::Event(EventRequest::Result {
                    round,
                    table,
                    cells,
                    correct: false,
                }),
            );
        }
        if round == 1 {
            app.apply(ctx, Action::Event(EventRequest::Release(1)));
        }
    }
}

impl Shots {
    fn new(cc: &eframe::CreationContext<'_>, out: PathBuf) -> Shots {
        let data = tempfile::tempdir().expect("temporary data folder");
        let clock = Arc::new(ManualClock::default());
        let deps = AppDeps::manual(
            clock.clone(),
            Arc::new(SilentSounder::default()),
            data.path(),
        );
        let mut app = App::new(cc, deps);
        let ctx = &cc.egui_ctx;
        let names = PLAYERS.map(String::from).to_vec();
        app.apply(ctx, Action::Timer(TimerCommand::SetPlayers(names)));
        app.apply(
            ctx,
            Action::Evening(Command::NewSheet {
                rounds: Some(1),
                target: None,
            }),
        );
        for left in SEED_002 {
            app.apply(ctx, Action::Evening(Command::AddGame));
            for (seat, value) in left.into_iter().enumerate() {
                let edit = DraftEdit::Left(seat, value.to_string());
                app.apply(ctx, Action::Evening(Command::Draft(edit)));
            }
            app.apply(ctx, Action::Evening(Command::SaveGame));
        }
        club_night(&mut app, ctx);
        // Ann… 루미 has finished a turn; 큐브 is 52 s into theirs: the warning is on.
        app.apply(ctx, Action::Timer(TimerCommand::Primary));
        clock.advance(Duration::from_secs(41));
        app.apply(ctx, Action::Timer(TimerCommand::Primary));
        Shots {
            app,
            clock,
            shots: shots(),
            next: 0,
            frames: 0,
            out,
            taken: Arc::default(),
            _data: data,
        }
    }
}

impl eframe::App for Shots {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        if let Some(image) = self.taken.lock().expect("not poisoned").take() {
            let shot = &self.shots[self.next];
            let path = self.out.join(&shot.name);
            match rummikub_companion::ui::save_png(&path, &image) {
                Ok(()) => println!("saved {}", path.display()),
                Err(e) => eprintln!("error: {}: {e}", path.display()),
            }
            self.next += 1;
            self.frames = 0;
        }
        let Some(shot) = self.shots.get(self.next) else {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
            return;
        };
        if self.frames == 0 {
            self.clock.set(shot.at);
            let mut settings = self.app.settings().clone();
            settings.language = shot.language;
            settings.face_to_face = shot.face_to_face;
            self.app.apply(&ctx, Action::Settings(settings));
            self.app.apply(&ctx, Action::Show(View::Timer));
            self.app
                .apply(&ctx, Action::Sheet(SheetRequest::History(false)));
            if matches!(shot.show, Action::Sheet(SheetRequest::History(true))) {
                self.app.apply(&ctx, Action::Show(View::Sheet));
            }
            let phones = shot.name.starts_with("phones");
            if phones != self.app.phone_url().is_some() {
                if phones {
                    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
                    self.app.shared().start_phones_on(loopback);
                } else {
                    self.app.apply(&ctx, Action::Phones(false));
                }
            }
            self.app.apply(&ctx, shot.show.clone());
        }
        eframe::App::ui(&mut self.app, ui, frame);
        self.frames += 1;
        if self.frames == 4 {
            let taken = Arc::clone(&self.taken);
            ctx.request_screenshot(move |image| {
                *taken.lock().expect("not poisoned") = Some(image);
            });
        }
        ctx.request_repaint();
    }
}

fn main() -> eframe::Result<()> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "docs/screenshots".into()),
    );
    std::fs::create_dir_all(&out).expect("output folder");
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_inner_size([1000.0, 880.0])
            .with_title("rummikub-companion screenshots"),
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_native(
        "rummikub-companion-screenshots",
        options,
        Box::new(move |cc| Ok(Box::new(Shots::new(cc, out)))),
    )
}
