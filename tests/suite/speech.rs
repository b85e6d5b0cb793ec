//! The table speaks (issue 22): the Korean respelling for espeak-ng, the happenings' words in
//! both languages, the voice settings' old files, and the laptop's engines run as programs
//! (fake `spd-say` and `espeak-ng` scripts first on `PATH` that record what they are asked).

use std::time::Duration;

use rummikub_companion::lang::Language;
use rummikub_companion::speech::phrases::{Happening, VoiceSettings, phrase};
use rummikub_companion::speech::respell::{for_engine, respell_korean, sino_korean};
use rummikub_companion::timer::{Alert, ChessClock, TimerEvent, TimerMode};

/// Written → as espeak-ng must be given it; every case of standard pronunciation the pass
/// implements, and words it must leave alone.
const RESPELLED: &[(&str, &str)] = &[
    // The phrases the table says.
    ("루미 차례입니다", "루미 차례임니다"),
    ("게임 종료", "게임 종뇨"),
    (
        "시간 초과 — 한 장 가져가세요",
        "시간 초과 — 한 장 가져가세요",
    ),
    ("루미 승리입니다", "루미 승니임니다"),
    ("루미 최종 우승입니다", "루미 최종 우승임니다"),
    ("10초", "십초"),
    ("25초", "이십오초"),
    // Nasalisation: a stop before ㄴ or ㅁ.
    ("입니다", "임니다"),
    ("합니다", "함니다"),
    ("국물", "궁물"),
    ("끝나다", "끈나다"),
    ("없는", "엄는"),
    ("읽는", "잉는"),
    // ㄹ said ㄴ after ㅁ, ㅇ or a stop (then the stop is nasal).
    ("종료", "종뇨"),
    ("심리", "심니"),
    ("국립", "궁닙"),
    ("협력", "혐녁"),
    // Lateralisation.
    ("신라", "실라"),
    ("설날", "설랄"),
    // ㅎ: aspiration and silence.
    ("좋다", "조타"),
    ("많다", "만타"),
    ("축하", "추카"),
    ("입학", "이팍"),
    ("좋아", "조아"),
    ("놓는", "논는"),
    // Tensing after a stop.
    ("학교", "학꾜"),
    ("했습니다", "했씀니다"),
    // Palatalisation.
    ("같이", "가치"),
    ("굳이", "구지"),
    // Left alone: no sound change, a space between words, Latin letters, punctuation.
    ("다시 시작", "다시 시작"),
    ("일시 정지", "일시 정지"),
    ("입 니다", "입 니다"),
    ("Rumi's turn", "Rumi's turn"),
    ("루미", "루미"),
];

#[test]
fn the_korean_respelling_writes_words_as_pronounced() {
    for (written, said) in RESPELLED {
        assert_eq!(respell_korean(written), *said, "respelling {written}");
    }
    // The pass is idempotent on its own output for these (nothing is changed twice).
    for (_, said) in RESPELLED
        .iter()
        .filter(|(w, _)| !w.chars().any(|c| c.is_ascii_digit()))
    {
        assert_eq!(respell_korean(said), *said, "respelling {said} again");
    }
}

#[test]
fn sino_korean_numbers_read_as_before_cho() {
    let cases = [
        (1, "일"),
        (10, "십"),
        (11, "십일"),
        (20, "이십"),
        (30, "삼십"),
        (100, "백"),
        (110, "백십"),
        (1000, "천"),
        (10_000, "만"),
        (12_345, "만이천삼백사십오"),
    ];
    for (n, words) in cases {
        assert_eq!(sino_korean(n), words, "{n}");
    }
}

#[test]
fn the_engine_gets_a_comma_for_the_dash_and_korean_respelled() {
    assert_eq!(
        for_engine(Language::Korean, "시간 초과 — 한 장 가져가세요"),
        "시간 초과, 한 장 가져가세요"
    );
    assert_eq!(
        for_engine(Language::Korean, "루미 차례입니다"),
        "루미 차례임니다"
    );
    // English is never respelled.
    assert_eq!(for_engine(Language::English, "Rumi's turn"), "Rumi's turn");
}

fn both(h: &Happening) -> (String, String) {
    (phrase(Language::English, h), phrase(Language::Korean, h))
}

#[test]
fn each_happening_has_its_words_in_both_languages() {
    let name = |n: &str| n.to_owned();
    let cases: Vec<(Happening, &str, &str)> = vec![
        (
            Happening::Turn { name: name("Rumi") },
            "Rumi's turn",
            "Rumi 차례입니다",
        ),
        (
            Happening::Turn {
                name: name("루미")
            },
            "루미's turn",
            "루미 차례입니다",
        ),
        (Happening::Warning { seconds: 10 }, "ten seconds", "10초"),
        (
            Happening::Warning { seconds: 15 },
            "fifteen seconds",
            "15초",
        ),
        (
            Happening::Warning { seconds: 25 },
            "twenty-five seconds",
            "25초",
        ),
        (Happening::Warning { seconds: 1 }, "one second", "1초"),
        (
            Happening::TimeUp { draw: 1 },
            "time's up — draw one",
            "시간 초과 — 한 장 가져가세요",
        ),
        (
            Happening::TimeUp { draw: 3 },
            "time's up — draw three",
            "시간 초과 — 세 장 가져가세요",
        ),
        (
            Happening::Flag {
                name: name("큐브")
            },
            "큐브 is out of time",
            "큐브, 시간이 다 됐습니다",
        ),
        (Happening::Paused, "paused", "일시 정지"),
        (Happening::Resumed, "resumed", "다시 시작"),
        (
            Happening::GameWon {
                name: name("퍼니")
            },
            "퍼니 wins the game",
            "퍼니 승리입니다",
        ),
        (
            Happening::MatchWon {
                names: vec![name("알토")],
            },
            "알토 wins the match",
            "알토 최종 우승입니다",
        ),
        (
            Happening::MatchWon {
                names: vec![name("루미"), name("큐브")],
            },
            "루미 and 큐브 share the win",
            "루미, 큐브 공동 우승입니다",
        ),
    ];
    for (happening, en, ko) in cases {
        assert_eq!(
            both(&happening),
            (en.to_owned(), ko.to_owned()),
            "{happening:?}"
        );
    }
}

#[test]
fn timer_alerts_map_to_what_is_said() {
    let s = Duration::from_secs;
    let event = |alert| TimerEvent {
        alert,
        turn: 3,
        player: 1,
        due: s(50),
        running: s(50),
    };
    let seat = |i: usize| ["루미", "큐브"][i].to_owned();
    let chess = TimerMode::ChessClock(ChessClock::default());
    // The warning says the table's warning time, whatever it is.
    assert_eq!(
        Happening::of_alert(&event(Alert::Warning), TimerMode::PerTurn, s(15), seat),
        Some(Happening::Warning { seconds: 15 })
    );
    // A per-turn time-up names the rules' draw (1); a chess clock's is the player's flag.
    assert_eq!(
        Happening::of_alert(&event(Alert::TimeUp), TimerMode::PerTurn, s(10), seat),
        Some(Happening::TimeUp { draw: 1 })
    );
    assert_eq!(
        Happening::of_alert(&event(Alert::TimeUp), chess, s(10), seat),
        Some(Happening::Flag {
            name: "큐브".into()
        })
    );
    // Ticks are sounds only.
    assert_eq!(
        Happening::of_alert(&event(Alert::Tick(3)), TimerMode::PerTurn, s(10), seat),
        None
    );
}

#[test]
fn voice_settings_switch_each_kind_and_the_test_speaks_even_when_off() {
    let turn = Happening::Turn {
        name: "Rumi".into(),
    };
    let test = Happening::Test {
        name: "Rumi".into(),
    };
    let on = VoiceSettings::default();
    assert!(on.says(&turn) && on.says(&Happening::Paused));
    let no_turns = VoiceSettings { turn: false, ..on };
    assert!(!no_turns.says(&turn));
    assert!(no_turns.says(&Happening::Warning { seconds: 10 }));
    let off = VoiceSettings { on: false, ..on };
    assert!(!off.says(&turn));
    assert!(off.says(&test));
    let silent = VoiceSettings { volume: 0.0, ..on };
    assert!(!silent.says(&test));
}

// ---- The laptop's engines, faked: scripts first on PATH that record what they are asked ----

mod laptop {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    use std::path::{Path, PathBuf};
    use std::sync::{Arc, Mutex};
    use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

    use rummikub_companion::evening::{Command, Deps, Settings, Shared, TableNotice};
    use rummikub_companion::lang::Language;
    use rummikub_companion::runtime::ManualClock;
    use rummikub_companion::sound::{Cue, Sounder};
    use rummikub_companion::speech::{self, Engine, SpeechProblem, Trouble};

    /// What espeak-ng is given for "<name>'s turn" in English, a Hangul name in the Korean
    /// voice (SSML), at volume `volume` (0–100).
    fn english_turn(name: &str, volume: u32) -> String {
        format!(
            "-m|-v|en|-a|{volume}|--|<speak><voice xml:lang=\"ko\">{name}</voice>'s turn</speak>|"
        )
    }

    /// A log shared by the fake engines and the sounder: one line per event, a wall-clock
    /// timestamp first.
    struct Log(PathBuf);

    impl Log {
        fn lines(&self) -> Vec<(f64, String)> {
            let text = std::fs::read_to_string(&self.0).unwrap_or_default();
            text.lines()
                .filter_map(|line| {
                    let (at, what) = line.split_once(' ')?;
                    Some((at.parse().ok()?, what.to_owned()))
                })
                .collect()
        }

        /// The utterances started, in order (cancels left out).
        fn started(&self) -> Vec<String> {
            self.lines()
                .into_iter()
                .filter(|(_, l)| l.contains("start") && !l.contains("-C"))
                .map(|(_, l)| l)
                .collect()
        }

        /// Waits (up to 5 s) until a line containing `what` is there.
        fn wait_for(&self, what: &str) -> (f64, String) {
            let until = Instant::now() + Duration::from_secs(5);
            loop {
                if let Some(line) = self.lines().into_iter().find(|(_, l)| l.contains(what)) {
                    return line;
                }
                assert!(
                    Instant::now() < until,
                    "no {what:?} in the log: {:?}",
                    self.lines()
                );
                std::thread::sleep(Duration::from_millis(10));
            }
        }

        fn append(&self, what: &str) {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.0)
                .expect("the log opens");
            writeln!(file, "{:.6} {what}", now()).expect("the log is written");
        }
    }

    fn now() -> f64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0.0, |d| d.as_secs_f64())
    }

    /// A sounder that writes each cue into the log (so cues and words share one timeline).
    struct LogSounder(Arc<Log>, Mutex<f32>);

    impl Sounder for LogSounder {
        fn play(&self, cue: Cue) {
            self.0.append(&format!("cue {}", cue.name()));
        }
        fn set_volume(&self, volume: f32) {
            *self.1.lock().unwrap_or_else(|e| e.into_inner()) = volume;
        }
        fn volume(&self) -> f32 {
            *self.1.lock().unwrap_or_else(|e| e.into_inner())
        }
        fn set_muted(&self, _muted: bool) {}
        fn is_muted(&self) -> bool {
            false
        }
    }

    /// A fake engine `name` in `dir`: logs "start <args joined by |>", speaks for `seconds`
    /// (unless it is `spd-say -C`), logs "end …", exits with `status`.
    fn fake(dir: &Path, name: &str, log: &Log, seconds: f64, status: i32) {
        let script = format!(
            "#!/bin/sh\n\
             args=$(printf '%s|' \"$@\")\n\
             echo \"$(date +%s.%N) {name} start $args\" >> '{log}'\n\
             if [ \"$1\" = \"-C\" ]; then exit 0; fi\n\
             sleep {seconds}\n\
             echo \"$(date +%s.%N) {name} end $args\" >> '{log}'\n\
             exit {status}\n",
            log = log.0.display(),
        );
        let path = dir.join(name);
        std::fs::write(&path, script).expect("the fake engine is written");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .expect("the fake engine is executable");
    }

    /// The `PATH` the speaker searches: the fakes' folder alone, so the machine's own
    /// engines (a real `spd-say` would be preferred to a fake `espeak-ng` wherever it is on
    /// `PATH`) never stand in for the fakes. The scripts themselves run with the test's
    /// environment (`sh`, `date`, `sleep`).
    fn path_with(dir: &Path) -> std::ffi::OsString {
        std::env::join_paths([dir]).expect("a PATH")
    }

    struct Table {
        evening: Shared,
        clock: Arc<ManualClock>,
        log: Arc<Log>,
        _dir: tempfile::TempDir,
        _data: tempfile::TempDir,
    }

    impl Table {
        /// An evening in `lang` with 루미 and 큐브, speaking through what is first on `PATH`
        /// (`engines` puts fakes in front).
        fn new(lang: Language, engines: impl FnOnce(&Path, &Log)) -> Table {
            let dir = tempfile::tempdir().expect("a folder for the fakes");
            let data = tempfile::tempdir().expect("a data folder");
            let log = Arc::new(Log(dir.path().join("said.log")));
            engines(dir.path(), &log);
            let bin = dir.path().join("bin");
            std::fs::create_dir_all(&bin).expect("bin");
            for entry in std::fs::read_dir(dir.path()).expect("the fakes").flatten() {
                let p = entry.path();
                if p.extension().is_none() && p.is_file() {
                    std::fs::rename(&p, bin.join(p.file_name().expect("a name"))).expect("moved");
                }
            }
            let clock = Arc::new(ManualClock::default());
            let sounder = Arc::new(LogSounder(Arc::clone(&log), Mutex::new(1.0)));
            let mut deps = Deps::manual(clock.clone(), sounder, data.path());
            deps.speaker = speech::open_on(&path_with(&bin));
            let evening = Shared::open(deps);
            let settings = Settings {
                language: lang,
                ..evening.lock().settings().clone()
            };
            evening
                .apply(Command::Settings(Box::new(settings)))
                .expect("the language is set");
            evening
                .apply(Command::SetPlayers(vec!["루미".into(), "큐브".into()]))
                .expect("two players");
            Table {
                evening,
                clock,
                log,
                _dir: dir,
                _data: data,
            }
        }

        fn press(&self) {
            self.clock.advance(Duration::from_secs(1));
            self.evening.apply(Command::Primary).expect("a turn");
        }

        /// The clock moves on and the timer delivers what is due (as its thread would).
        fn wait(&self, secs: u64) {
            self.clock.advance(Duration::from_secs(secs));
            self.evening.lock().timer().pump();
        }

        fn notices(&self) -> Vec<TableNotice> {
            let evening = self.evening.lock();
            evening
                .notices()
                .shown()
                .iter()
                .map(|s| s.notice.clone())
                .collect()
        }

        fn engine(&self) -> Option<Engine> {
            self.evening.lock().voice().speaker().engine()
        }
    }

    #[test]
    fn espeak_ng_says_the_turns_in_korean_respelled_the_warning_after_its_cue() {
        let t = Table::new(Language::Korean, |dir, log| {
            fake(dir, "espeak-ng", log, 0.05, 0)
        });
        assert_eq!(t.engine(), Some(Engine::EspeakNg));
        let asked = now();
        t.press(); // 루미 starts
        let (started, line) = t.log.wait_for("start");
        assert_eq!(line, "espeak-ng start -v|ko|-a|100|--|루미 차례임니다|");
        let latency = started - asked;
        println!(
            "turn change → espeak-ng running: {:.0} ms",
            latency * 1000.0
        );
        assert!(latency < 0.5, "said {latency:.3} s after the turn change");
        t.wait(50); // 10 s left: the warning's cue, then its words
        let (cue_at, _) = t.log.wait_for("cue warning");
        let (said_at, line) = t.log.wait_for("십초");
        assert_eq!(line, "espeak-ng start -v|ko|-a|100|--|십초|");
        let gap = said_at - cue_at;
        assert!(
            (0.95..1.6).contains(&gap),
            "the words {gap:.3} s after the cue (it lasts 1.0 s)"
        );
        t.wait(11); // time's up: the rules' draw of one
        t.log.wait_for("시간 초과, 한 장 가져가세요");
        t.press(); // 큐브's turn
        t.log.wait_for("큐브 차례임니다");
        let order: Vec<String> = t
            .log
            .lines()
            .into_iter()
            .filter(|(_, l)| l.contains("start") || l.starts_with("cue"))
            .map(|(_, l)| l)
            .collect();
        assert_eq!(
            order,
            [
                "espeak-ng start -v|ko|-a|100|--|루미 차례임니다|",
                "cue warning",
                "espeak-ng start -v|ko|-a|100|--|십초|",
                "cue timeup",
                "espeak-ng start -v|ko|-a|100|--|시간 초과, 한 장 가져가세요|",
                "espeak-ng start -v|ko|-a|100|--|큐브 차례임니다|",
            ]
        );
        assert!(t.notices().is_empty(), "{:?}", t.notices());
    }

    #[test]
    fn a_new_turn_cuts_off_the_words_still_being_said() {
        let t = Table::new(Language::English, |dir, log| {
            fake(dir, "espeak-ng", log, 2.0, 0)
        });
        t.press(); // 루미 starts: said for 2 s
        t.log.wait_for(&english_turn("루미", 100));
        t.press(); // 큐브's turn, while 루미's is still being said
        t.log
            .wait_for(&format!("end {}", english_turn("큐브", 100)));
        let lines: Vec<String> = t.log.lines().into_iter().map(|(_, l)| l).collect();
        assert_eq!(
            lines,
            [
                format!("espeak-ng start {}", english_turn("루미", 100)),
                format!("espeak-ng start {}", english_turn("큐브", 100)),
                format!("espeak-ng end {}", english_turn("큐브", 100)),
            ],
            "루미's words were cut off (no end), 큐브's were said to the end"
        );
    }

    #[test]
    fn spd_say_comes_first_waits_while_speaking_and_is_cancelled_by_a_new_turn() {
        let t = Table::new(Language::Korean, |dir, log| {
            fake(dir, "spd-say", log, 2.0, 0);
            fake(dir, "espeak-ng", log, 0.05, 0);
        });
        assert_eq!(t.engine(), Some(Engine::SpdSay));
        t.press();
        t.log
            .wait_for("spd-say start -w|-l|ko|-i|0|--|루미 차례임니다|");
        t.press();
        t.log.wait_for("end -w|-l|ko|-i|0|--|큐브 차례임니다|");
        let lines: Vec<String> = t.log.lines().into_iter().map(|(_, l)| l).collect();
        // The first turn's words: started, cut off (killed, then `spd-say -C`: the service
        // drops what it says); before each new turn the service is cancelled too.
        assert_eq!(
            lines,
            [
                "spd-say start -C|",
                "spd-say start -w|-l|ko|-i|0|--|루미 차례임니다|",
                "spd-say start -C|",
                "spd-say start -C|",
                "spd-say start -w|-l|ko|-i|0|--|큐브 차례임니다|",
                "spd-say end -w|-l|ko|-i|0|--|큐브 차례임니다|",
            ]
        );
        assert!(
            !lines.iter().any(|l| l.starts_with("espeak-ng")),
            "espeak-ng is not used while spd-say is there"
        );
    }

    #[test]
    fn the_voice_volume_is_apart_from_the_alarm_and_a_kind_switched_off_is_not_said() {
        let t = Table::new(Language::English, |dir, log| {
            fake(dir, "espeak-ng", log, 0.01, 0)
        });
        let mut settings = t.evening.lock().settings().clone();
        settings.voice.volume = 0.5;
        settings.voice.warning = false;
        settings.volume = 0.2;
        t.evening
            .apply(Command::Settings(Box::new(settings)))
            .expect("settings");
        t.press();
        t.log.wait_for(&english_turn("루미", 50));
        t.wait(50);
        t.log.wait_for("cue warning");
        t.wait(11);
        t.log.wait_for("time's up, draw one");
        let said: Vec<String> = t
            .log
            .lines()
            .into_iter()
            .filter(|(_, l)| l.contains("start"))
            .map(|(_, l)| l)
            .collect();
        assert_eq!(
            said,
            [
                format!("espeak-ng start {}", english_turn("루미", 50)),
                "espeak-ng start -v|en|-a|50|--|time's up, draw one|".to_owned(),
            ],
            "no warning words, the alarm's volume untouched"
        );
    }

    #[test]
    fn a_spoken_name_is_said_instead_of_the_written_one_and_follows_a_rename() {
        let t = Table::new(Language::Korean, |dir, log| {
            fake(dir, "espeak-ng", log, 0.01, 0)
        });
        let mut settings = t.evening.lock().settings().clone();
        settings.spoken.insert("큐브".into(), "큐브리".into());
        t.evening
            .apply(Command::Settings(Box::new(settings)))
            .expect("settings");
        t.evening
            .apply(Command::Rename(1, "Cube".into()))
            .expect("renamed");
        assert_eq!(
            t.evening
                .lock()
                .settings()
                .spoken
                .get("Cube")
                .map(String::as_str),
            Some("큐브리")
        );
        t.press();
        t.press();
        t.log.wait_for("큐브리 차례임니다");
        // The phones are told how to say the seats too.
        let view = t.evening.lock().phone_view();
        assert_eq!(view.spoken, ["루미", "큐브리"]);
    }

    #[test]
    fn a_failing_spd_say_gives_way_to_espeak_ng_which_says_the_same_words() {
        let t = Table::new(Language::Korean, |dir, log| {
            fake(dir, "spd-say", log, 0.01, 1);
            fake(dir, "espeak-ng", log, 0.01, 0);
        });
        assert_eq!(t.engine(), Some(Engine::SpdSay));
        t.press();
        t.log
            .wait_for("espeak-ng end -v|ko|-a|100|--|루미 차례임니다|");
        t.press();
        t.log
            .wait_for("espeak-ng end -v|ko|-a|100|--|큐브 차례임니다|");
        let started: Vec<String> = t.log.started();
        assert_eq!(
            started,
            [
                "spd-say start -w|-l|ko|-i|0|--|루미 차례임니다|",
                "espeak-ng start -v|ko|-a|100|--|루미 차례임니다|",
                "espeak-ng start -v|ko|-a|100|--|큐브 차례임니다|",
            ]
        );
        assert_eq!(t.engine(), Some(Engine::EspeakNg));
        assert!(t.notices().is_empty(), "{:?}", t.notices());
    }

    /// A `spd-say` that never returns (a wedged speech-dispatcher): it logs its call, then
    /// sleeps until killed.
    fn hung_spd_say(dir: &Path, log: &Log) {
        let script = format!(
            "#!/bin/sh\n\
             args=$(printf '%s|' \"$@\")\n\
             echo \"$(date +%s.%N) spd-say start $args\" >> '{log}'\n\
             exec sleep 1000\n",
            log = log.0.display(),
        );
        let path = dir.join("spd-say");
        std::fs::write(&path, script).expect("the fake engine is written");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))
            .expect("the fake engine is executable");
    }

    /// Regression (speech-spd-cancel-hang.sh): the speaking thread waited on `spd-say -C`
    /// without a limit; after the first turn nothing was said for the rest of the evening and
    /// nobody was told. Now the cancel has its limit, espeak-ng takes over at once, every turn
    /// is said, and the table is told once.
    #[test]
    fn a_hung_spd_say_gives_way_to_espeak_ng_every_turn_is_said_and_the_table_is_told_once() {
        let t = Table::new(Language::Korean, |dir, log| {
            hung_spd_say(dir, log);
            fake(dir, "espeak-ng", log, 0.01, 0);
        });
        assert_eq!(t.engine(), Some(Engine::SpdSay));
        let asked = Instant::now();
        t.press(); // 루미
        t.log
            .wait_for("espeak-ng end -v|ko|-a|100|--|루미 차례임니다|");
        let waited = asked.elapsed();
        assert!(
            waited < speech::CANCEL_LIMIT + Duration::from_secs(2),
            "said {waited:?} after the turn"
        );
        for (turn, name) in ["큐브", "루미", "큐브", "루미"].into_iter().enumerate() {
            t.press();
            let said = format!("espeak-ng end -v|ko|-a|100|--|{name} 차례임니다|");
            let until = Instant::now() + Duration::from_secs(5);
            while t.log.lines().iter().filter(|(_, l)| *l == said).count() < turn / 2 + 1 {
                assert!(
                    Instant::now() < until,
                    "turn {turn} unsaid: {:?}",
                    t.log.lines()
                );
                std::thread::sleep(Duration::from_millis(10));
            }
        }
        let spd_calls = t
            .log
            .lines()
            .iter()
            .filter(|(_, l)| l.starts_with("spd-say"))
            .count();
        assert_eq!(spd_calls, 1, "one cancel, then espeak-ng only");
        assert_eq!(t.engine(), Some(Engine::EspeakNg));
        let notices = t.notices();
        assert_eq!(
            notices,
            [TableNotice::VoiceFailed(SpeechProblem {
                engine: Engine::SpdSay,
                trouble: Trouble::Hung(speech::CANCEL_LIMIT),
                instead: Some(Engine::EspeakNg),
            })]
        );
        let (line, detail) = notices[0].text(Language::Korean);
        assert_eq!(
            line,
            "spd-say가 응답하지 않아 이제부터 espeak-ng로 말합니다."
        );
        assert_eq!(
            detail.as_deref(),
            Some("spd-say가 2초 안에 답하지 않아 멈췄습니다.")
        );
    }

    /// A `spd-say` that hangs while speaking (not at the cancel) is killed after its limit
    /// and the words go to the next engine.
    #[test]
    fn an_engine_that_hangs_while_speaking_is_stopped_at_its_limit() {
        let t = Table::new(Language::English, |dir, log| {
            fake(dir, "espeak-ng", log, 3600.0, 0);
        });
        t.evening
            .apply(Command::TestVoice(Language::English))
            .expect("test voice");
        let said = "espeak-ng start -m|-v|en|-a|100|--|<speak>Voice test. ";
        t.log.wait_for(said);
        let limit = speech::speak_limit("Voice test. 루미's turn");
        std::thread::sleep(limit + Duration::from_millis(500));
        let notices = t.notices();
        assert_eq!(
            notices,
            [TableNotice::VoiceFailed(SpeechProblem {
                engine: Engine::EspeakNg,
                trouble: Trouble::Hung(limit),
                instead: None,
            })],
            "killed at {limit:?} and told"
        );
    }

    /// Issue 49.4: an English table says a Hangul name with the Korean voice. spd-say says
    /// the runs one after another, each in its language.
    #[test]
    fn spd_say_says_a_hangul_name_in_an_english_sentence_with_the_korean_voice() {
        let t = Table::new(Language::English, |dir, log| {
            fake(dir, "spd-say", log, 0.01, 0);
        });
        t.press();
        t.log.wait_for("end -w|-l|en|-i|0|--|'s turn|");
        let said: Vec<String> = t.log.started();
        assert_eq!(
            said,
            [
                "spd-say start -w|-l|ko|-i|0|--|루미|",
                "spd-say start -w|-l|en|-i|0|--|'s turn|",
            ]
        );
    }

    #[test]
    fn with_no_engine_on_path_the_table_is_told_once_and_the_sounds_go_on() {
        let t = Table::new(Language::Korean, |_, _| {});
        // An empty PATH: no engine at all (the machine's espeak-ng is not on it).
        let data = tempfile::tempdir().expect("a data folder");
        let clock = Arc::new(ManualClock::default());
        let sounder = Arc::new(LogSounder(Arc::clone(&t.log), Mutex::new(1.0)));
        let mut deps = Deps::manual(clock.clone(), sounder, data.path());
        deps.speaker = speech::open_on(std::ffi::OsStr::new(t._dir.path()));
        let evening = Shared::open(deps);
        assert_eq!(evening.lock().voice().speaker().engine(), None);
        evening
            .apply(Command::SetPlayers(vec!["루미".into(), "큐브".into()]))
            .expect("players");
        clock.advance(Duration::from_secs(1));
        evening.apply(Command::Primary).expect("start");
        clock.advance(Duration::from_secs(50));
        evening.lock().timer().pump();
        clock.advance(Duration::from_secs(1));
        evening.apply(Command::Primary).expect("next turn");
        evening
            .apply(Command::TestVoice(Language::Korean))
            .expect("test voice");
        let notices: Vec<TableNotice> = evening
            .lock()
            .notices()
            .shown()
            .iter()
            .map(|s| s.notice.clone())
            .collect();
        assert_eq!(notices, [TableNotice::NoVoice]);
        let (line, detail) = TableNotice::NoVoice.text(Language::Korean);
        assert!(line.contains("음성 엔진이 없어"), "{line}");
        assert!(detail.is_some_and(|d| d.contains("espeak-ng")));
        // The sounds as before: the warning's cue sounded; nothing was said.
        let lines: Vec<String> = t.log.lines().into_iter().map(|(_, l)| l).collect();
        assert_eq!(lines, ["cue warning"]);
        assert_eq!(
            evening
                .lock()
                .timer()
                .read(|timer, _| timer.current_player()),
            1,
            "the start and one end of turn: 큐브 plays"
        );
    }

    #[test]
    fn an_engine_that_fails_is_told_once_and_nothing_else_changes() {
        let t = Table::new(Language::English, |dir, log| {
            fake(dir, "espeak-ng", log, 0.01, 3)
        });
        t.press();
        t.log
            .wait_for(&format!("end {}", english_turn("루미", 100)));
        std::thread::sleep(Duration::from_millis(100));
        t.press();
        t.log
            .wait_for(&format!("end {}", english_turn("큐브", 100)));
        std::thread::sleep(Duration::from_millis(100));
        let notices = t.notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(
            notices[0],
            TableNotice::VoiceFailed(SpeechProblem {
                engine: Engine::EspeakNg,
                trouble: Trouble::Failed(Some(3)),
                instead: None,
            })
        );
        let (_, detail) = notices[0].text(Language::Korean);
        assert_eq!(
            detail.as_deref(),
            Some("espeak-ng가 오류 코드 3으로 끝났습니다.")
        );
        // The start and one end of turn: 큐브 plays, as without a voice.
        assert_eq!(
            t.evening
                .lock()
                .timer()
                .read(|timer, _| timer.current_player()),
            1
        );
    }
}

#[test]
fn settings_saved_before_the_voice_still_load_with_it_on() {
    // `settings.json` as the program wrote it before issue 22: no voice, no spoken names.
    let old = r#"{"version": 1, "settings": {"language": "Korean",
        "rules": {"turn_seconds": 45, "warning_seconds": 10},
        "volume": 0.5, "muted": false, "players": ["루미", "큐브", "퍼니"],
        "face_to_face": false, "phones": false, "phone_port": 8765, "anyone_may_end": true}}"#;
    let data = tempfile::tempdir().expect("a data folder");
    std::fs::write(data.path().join("settings.json"), old).expect("the old file");
    let store = rummikub_companion::store::Store::open(data.path()).expect("the store");
    let loaded = store.load_settings::<rummikub_companion::evening::Settings>();
    assert!(loaded.notices.is_empty(), "{:?}", loaded.notices);
    let settings = loaded.value;
    assert_eq!(settings.language, Language::Korean);
    assert_eq!(settings.players, ["루미", "큐브", "퍼니"]);
    assert_eq!(settings.rules.turn_seconds, 45);
    assert_eq!(settings.volume, 0.5);
    assert!(settings.anyone_may_end);
    assert_eq!(settings.voice, VoiceSettings::default());
    assert!(settings.spoken.is_empty());
    // A voice setting saved partly (one field) keeps the others' defaults.
    let partial: VoiceSettings = serde_json::from_str(r#"{"on": false}"#).expect("a partial voice");
    assert_eq!(
        partial,
        VoiceSettings {
            on: false,
            ..VoiceSettings::default()
        }
    );
}

#[test]
fn the_phone_says_what_the_laptop_says() {
    let word = |key: &str| {
        rummikub_companion::i18n::phone::WORDS
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, text)| *text)
            .unwrap_or_else(|| panic!("no phone word {key}"))
    };
    let name = || "{name}".to_owned();
    let same = [
        ("sayTurnOf", Happening::Turn { name: name() }),
        ("sayFlag", Happening::Flag { name: name() }),
        ("sayTimeUp", Happening::TimeUp { draw: 1 }),
        ("sayPaused", Happening::Paused),
        ("sayResumed", Happening::Resumed),
    ];
    for (key, happening) in same {
        for lang in Language::ALL {
            assert_eq!(
                word(key).get(lang),
                phrase(lang, &happening),
                "{key} in {lang:?}"
            );
        }
    }
    // The warning: the laptop says "ten seconds", the phone's voice reads "10 seconds".
    assert_eq!(
        word("sayWarning").get(Language::Korean),
        phrase(Language::Korean, &Happening::Warning { seconds: 0 }).replace('0', "{n}")
    );
}

/// The real espeak-ng, given exactly what the laptop's speaker gives it (the same arguments,
/// the same respelled Korean), writes a WAV instead of playing it: words that can be listened
/// to. Ignored like the browser tests: it needs `/usr/bin/espeak-ng` (it fails without it).
#[test]
#[ignore = "needs espeak-ng (apt-get install espeak-ng)"]
fn the_real_espeak_ng_makes_a_wav_of_what_the_laptop_says() {
    use rummikub_companion::speech::phrases::Happening as H;
    use rummikub_companion::speech::{Engine, Utterance};
    let espeak = std::path::Path::new("/usr/bin/espeak-ng");
    assert!(espeak.exists(), "espeak-ng is missing");
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (lang, happening, file) in [
        (
            Language::Korean,
            H::Turn {
                name: "루미".into(),
            },
            "speech-ko-turn.wav",
        ),
        (
            Language::Korean,
            H::TimeUp { draw: 1 },
            "speech-ko-timeup.wav",
        ),
        (
            Language::English,
            H::Turn {
                name: "Rumi".into(),
            },
            "speech-en-turn.wav",
        ),
    ] {
        let text = for_engine(lang, &phrase(lang, &happening));
        let u = Utterance::plain(text, lang, 1.0);
        let wav = out.join(file);
        let status = std::process::Command::new(espeak)
            .arg("-w")
            .arg(&wav)
            .args(Engine::EspeakNg.args(&u))
            .status()
            .expect("espeak-ng runs");
        assert!(status.success(), "{status}");
        let reader = hound::WavReader::open(&wav).expect("a WAV");
        let spec = reader.spec();
        let seconds = reader.duration() as f64 / f64::from(spec.sample_rate);
        let size = std::fs::metadata(&wav).map(|m| m.len()).unwrap_or(0);
        println!(
            "{}: {:?} → {seconds:.2} s, {} Hz, {} bit, {size} bytes",
            wav.display(),
            u.text,
            spec.sample_rate,
            spec.bits_per_sample
        );
        assert!((0.5..6.0).contains(&seconds), "{seconds} s of speech");
    }
}

/// Seconds of speech the real espeak-ng makes of `u` (a WAV written, then measured).
fn real_espeak_seconds(u: &rummikub_companion::speech::Utterance, file: &str) -> f64 {
    use rummikub_companion::speech::Engine;
    let espeak = std::path::Path::new("/usr/bin/espeak-ng");
    assert!(espeak.exists(), "espeak-ng is missing");
    let wav = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(file);
    let status = std::process::Command::new(espeak)
        .arg("-w")
        .arg(&wav)
        .args(Engine::EspeakNg.args(u))
        .stderr(std::process::Stdio::null())
        .status()
        .expect("espeak-ng runs");
    assert!(status.success(), "{status}");
    let reader = hound::WavReader::open(&wav).expect("a WAV");
    reader.duration() as f64 / f64::from(reader.spec().sample_rate)
}

/// Issue 49.4: the real espeak-ng says "루미's turn" at an English table with the Korean
/// voice for the name (SSML), about a second; given to the English voice alone it spelled
/// the name out ("Hangul syllable …"), over four seconds.
#[test]
#[ignore = "needs espeak-ng (apt-get install espeak-ng)"]
fn the_real_espeak_ng_says_a_hangul_name_in_an_english_sentence_in_its_own_voice() {
    use rummikub_companion::speech::phrases::Happening as H;
    use rummikub_companion::speech::{RecordingSpeaker, Utterance, Voice, VoiceConfig};
    use std::sync::Arc;
    let speaker = Arc::new(RecordingSpeaker::default());
    let voice = Voice::new(speaker.clone());
    voice.configure(VoiceConfig {
        lang: Language::English,
        ..VoiceConfig::default()
    });
    voice.announce(
        &H::Turn {
            name: "루미".into(),
        },
        Duration::ZERO,
    );
    let said = speaker.said().pop().expect("said");
    let mixed = real_espeak_seconds(&said, "speech-en-hangul-name.wav");
    let plain = Utterance::plain("루미's turn", Language::English, 1.0);
    let spelled = real_espeak_seconds(&plain, "speech-en-hangul-spelled.wav");
    println!("\"루미's turn\": {mixed:.2} s with the Korean voice, {spelled:.2} s spelled out");
    assert!(mixed < 2.0, "{mixed:.2} s");
    assert!(spelled > 2.0 * mixed, "{spelled:.2} s against {mixed:.2} s");
}

mod evening {
    use std::sync::Arc;
    use std::time::Duration;

    use rummikub_companion::evening::{Command, Deps, DraftEdit, Settings, Shared};
    use rummikub_companion::lang::Language;
    use rummikub_companion::runtime::ManualClock;
    use rummikub_companion::sound::RecordingSounder;
    use rummikub_companion::speech::RecordingSpeaker;

    /// 루미 and 큐브 in `lang`, speaking to a recorder.
    fn table(
        lang: Language,
    ) -> (
        Shared,
        Arc<RecordingSpeaker>,
        Arc<ManualClock>,
        tempfile::TempDir,
    ) {
        let data = tempfile::tempdir().expect("a data folder");
        let clock = Arc::new(ManualClock::default());
        let speaker = Arc::new(RecordingSpeaker::default());
        let mut deps = Deps::manual(
            clock.clone(),
            Arc::new(RecordingSounder::default()),
            data.path(),
        );
        deps.speaker = speaker.clone();
        let evening = Shared::open(deps);
        let settings = Settings {
            language: lang,
            ..evening.lock().settings().clone()
        };
        evening
            .apply(Command::Settings(Box::new(settings)))
            .expect("the language");
        evening
            .apply(Command::SetPlayers(vec!["루미".into(), "큐브".into()]))
            .expect("two players");
        (evening, speaker, clock, data)
    }

    fn game(evening: &Shared, left: [&str; 2]) {
        evening.apply(Command::AddGame).expect("the form");
        for (seat, text) in left.iter().enumerate() {
            evening
                .apply(Command::Draft(DraftEdit::Left(seat, (*text).to_owned())))
                .expect("typed");
        }
        evening.apply(Command::SaveGame).expect("saved");
    }

    #[test]
    fn a_saved_game_names_its_winner_and_the_last_game_the_matchs() {
        let (evening, speaker, _clock, _data) = table(Language::Korean);
        evening
            .apply(Command::NewSheet {
                rounds: Some(1),
                target: None,
            })
            .expect("a one-round sheet");
        game(&evening, ["0", "20"]);
        game(&evening, ["3", "0"]);
        // Game 1: 루미 +20; game 2: 큐브 +3. 루미 leads 17 to -17: the match is 루미's.
        assert_eq!(speaker.texts(), ["루미 승니임니다", "루미 최종 우승임니다"]);
        // An undo of the game says nothing.
        evening.apply(Command::Undo(None)).expect("undone");
        assert_eq!(speaker.texts().len(), 2);
    }

    /// Issue 49.4: a game added after the match was over does not count, and is not
    /// announced.
    #[test]
    fn a_game_after_the_match_is_over_is_not_announced() {
        let (evening, speaker, _clock, _data) = table(Language::Korean);
        evening
            .apply(Command::NewSheet {
                rounds: Some(1),
                target: None,
            })
            .expect("a one-round sheet");
        game(&evening, ["0", "20"]);
        game(&evening, ["3", "0"]);
        assert_eq!(speaker.texts().len(), 2, "the game and the match");
        game(&evening, ["0", "9"]);
        assert_eq!(
            speaker.texts(),
            ["루미 승니임니다", "루미 최종 우승임니다"],
            "nothing for a game that does not count"
        );
    }

    #[test]
    fn pause_and_resume_are_said_and_an_undo_of_a_turn_is_not() {
        let (evening, speaker, clock, _data) = table(Language::English);
        evening.apply(Command::Primary).expect("start");
        clock.advance(Duration::from_secs(5));
        evening.apply(Command::TogglePause).expect("pause");
        evening.apply(Command::TogglePause).expect("resume");
        clock.advance(Duration::from_secs(1));
        evening.apply(Command::Primary).expect("큐브's turn");
        evening.apply(Command::Undo(None)).expect("undone");
        assert_eq!(
            speaker.texts(),
            ["루미's turn", "paused", "resumed", "큐브's turn"]
        );
        let said = speaker.said();
        assert!(
            said[0].cuts_off && !said[1].cuts_off,
            "a turn cuts off, a pause waits"
        );
        assert!(said.iter().all(|u| u.after == Duration::ZERO));
    }

    #[test]
    fn test_voice_speaks_in_the_language_asked_even_with_the_voice_off() {
        let (evening, speaker, _clock, _data) = table(Language::English);
        let mut settings = evening.lock().settings().clone();
        settings.voice.on = false;
        evening
            .apply(Command::Settings(Box::new(settings)))
            .expect("voice off");
        evening.apply(Command::Primary).expect("start");
        evening
            .apply(Command::TestVoice(Language::Korean))
            .expect("test");
        evening
            .apply(Command::TestVoice(Language::English))
            .expect("test");
        let said = speaker.said();
        let texts: Vec<(Language, &str)> = said.iter().map(|u| (u.lang, u.text.as_str())).collect();
        assert_eq!(
            texts,
            [
                (Language::Korean, "음성 안내 시험임니다. 루미 차례임니다"),
                (Language::English, "Voice test. 루미's turn"),
            ],
            "the turn was not said (voice off); both tests were"
        );
        assert!(evening.lock().notices().shown().is_empty());
    }

    #[test]
    fn the_warning_is_said_after_its_cue_by_the_timers_pump() {
        let (evening, speaker, clock, _data) = table(Language::English);
        evening.apply(Command::Primary).expect("start");
        clock.advance(Duration::from_secs(50));
        evening.lock().timer().pump();
        let said = speaker.said();
        let warning = said.last().expect("the warning is said");
        assert_eq!(warning.text, "ten seconds");
        assert_eq!(
            warning.after,
            Duration::from_millis(1000),
            "after the 1 s chime"
        );
        // With the alarm muted (another table) the words come at once.
        let (evening, speaker, clock, _data) = table(Language::English);
        let mut settings = evening.lock().settings().clone();
        settings.muted = true;
        evening
            .apply(Command::Settings(Box::new(settings)))
            .expect("muted");
        evening.apply(Command::Primary).expect("start");
        clock.advance(Duration::from_secs(50));
        evening.lock().timer().pump();
        let said = speaker.said();
        let warning = said.last().expect("the warning is said");
        assert_eq!(
            (warning.text.as_str(), warning.after),
            ("ten seconds", Duration::ZERO)
        );
    }

    #[test]
    fn a_turn_ended_during_the_time_up_alarm_is_named_after_the_alarm() {
        let (evening, speaker, clock, _data) = table(Language::English);
        evening.apply(Command::Primary).expect("start");
        clock.advance(Duration::from_secs(60));
        evening.lock().timer().pump(); // the 1.5 s alarm starts now
        evening
            .apply(Command::Primary)
            .expect("큐브's turn, at once");
        let said = speaker.said();
        let turn = said.last().expect("the turn is said");
        assert_eq!(turn.text, "큐브's turn");
        assert!(
            turn.after > Duration::from_millis(1200) && turn.after <= Duration::from_millis(1500),
            "waits for the alarm: {:?}",
            turn.after
        );
    }
}

/// The Settings view's voice section, headless (egui_kittest).
mod window {
    use std::sync::Arc;

    use egui_kittest::Harness;
    use egui_kittest::kittest::Queryable;
    use rummikub_companion::lang::Language;
    use rummikub_companion::runtime::ManualClock;
    use rummikub_companion::sound::RecordingSounder;
    use rummikub_companion::speech::RecordingSpeaker;
    use rummikub_companion::ui::app::{Action, TimerCommand, View};
    use rummikub_companion::ui::{App, AppDeps};

    fn apply(harness: &mut Harness<'static, App>, action: Action) {
        let ctx = harness.ctx.clone();
        harness.state_mut().apply(&ctx, action);
    }

    #[test]
    fn the_settings_test_voice_buttons_speak_and_the_switches_and_spoken_names_save() {
        let data = tempfile::tempdir().expect("a data folder");
        let clock = Arc::new(ManualClock::default());
        let speaker = Arc::new(RecordingSpeaker::default());
        let mut deps = AppDeps::manual(
            clock.clone(),
            Arc::new(RecordingSounder::default()),
            data.path(),
        );
        deps.evening.speaker = speaker.clone();
        let mut harness = Harness::builder()
            .with_max_steps(12)
            .with_size([1100.0, 2600.0])
            .build_eframe(move |cc| App::new(cc, deps));
        harness.run();
        let mut settings = harness.state().settings().clone();
        settings.language = Language::Korean;
        apply(&mut harness, Action::Settings(settings));
        apply(
            &mut harness,
            Action::Timer(TimerCommand::SetPlayers(vec!["Rumi".into(), "Bo".into()])),
        );
        apply(&mut harness, Action::Show(View::Settings));
        harness.run();

        harness.get_by_label("음성 시험 (한국어)").click();
        harness.run();
        harness.get_by_label("음성 시험 (English)").click();
        harness.run();
        let said: Vec<(Language, String)> = speaker
            .said()
            .into_iter()
            .map(|u| (u.lang, u.text))
            .collect();
        assert_eq!(
            said,
            [
                (
                    Language::Korean,
                    "음성 안내 시험임니다. Rumi 차례임니다".to_owned()
                ),
                (Language::English, "Voice test. Rumi's turn".to_owned()),
            ]
        );

        // A kind switched off, and a spoken form for Rumi, typed in the field named after her.
        harness.get_by_label("일시정지와 계속").click();
        harness.run();
        harness
            .get_by_role_and_label(egui::Role::TextInput, "Rumi")
            .focus();
        harness.run();
        harness
            .get_by_role_and_label(egui::Role::TextInput, "Rumi")
            .type_text("루미");
        harness.run();
        // Leaving the field commits it.
        harness.get_by_label("음성 음량").click();
        harness.run();
        harness.run();
        let settings = harness.state().settings();
        assert!(!settings.voice.pause, "pause and resume are off");
        assert!(settings.voice.turn, "the others stay on");
        assert_eq!(
            settings.spoken.get("Rumi").map(String::as_str),
            Some("루미")
        );
    }
}
