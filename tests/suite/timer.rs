//! The turn-timer engine on fake time: exact event times, pauses, late and jittered polls,
//! rotation, statistics, and a 1,000-turn random simulation against a simple model; the
//! same for chess-clock mode (banks, increments, flags), with its own random simulation.

use std::time::Duration;

use rummikub_companion::rules::{ClockMode, Preset, RuleSet};
use rummikub_companion::timer::{
    Alert, ChessClock, Penalty, Phase, PlayerStats, SavedChessClock, SavedTimer, Timer, TimerError,
    TimerEvent, TimerMode, TimerSettings,
};

fn s(secs: u64) -> Duration {
    Duration::from_secs(secs)
}

fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

fn settings(turn: Duration, warning: Duration, ticks: u32) -> TimerSettings {
    TimerSettings {
        turn,
        warning,
        ticks,
    }
}

fn timer(players: &[&str], settings: TimerSettings) -> Timer {
    Timer::new(players.iter().copied(), settings).expect("valid players")
}

fn kinds(events: &[TimerEvent]) -> Vec<Alert> {
    events.iter().map(|e| e.alert).collect()
}

/// An arbitrary epoch, so nothing silently depends on starting at zero.
const T0: Duration = Duration::new(1_234, 567_891_234);

#[test]
fn warning_at_exactly_50_s_and_time_up_at_exactly_60_s() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    t.start(T0).expect("applies");
    let nano = Duration::from_nanos(1);
    assert!(t.poll(T0 + s(50) - nano).is_empty());
    let warning = t.poll(T0 + s(50));
    assert_eq!(kinds(&warning), [Alert::Warning]);
    assert_eq!(warning[0].due, T0 + s(50));
    assert_eq!(warning[0].running, s(50));
    assert_eq!((warning[0].turn, warning[0].player), (1, 0));
    assert_eq!(t.display_seconds(T0 + s(50)), 10);
    assert_eq!(t.display_seconds(T0 + s(50) - nano), 11);
    assert!(t.poll(T0 + s(60) - nano).is_empty());
    assert!(!t.is_timed_out(T0 + s(60) - nano));
    let up = t.poll(T0 + s(60));
    assert_eq!(kinds(&up), [Alert::TimeUp]);
    assert_eq!(up[0].due, T0 + s(60));
    assert!(t.is_timed_out(T0 + s(60)));
    assert_eq!(t.display_seconds(T0 + s(60)), 0);
    // Nothing more for this turn, however long it waits.
    assert!(t.poll(T0 + s(3_600)).is_empty());
    assert_eq!(t.next_event_at(), None);
}

#[test]
fn pauses_are_excluded_from_running_time() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    t.start(T0).expect("applies");
    t.pause(T0 + s(20)).expect("applies");
    assert_eq!(t.phase(), Phase::Paused);
    assert_eq!(t.remaining(T0 + s(500)), s(40));
    assert!(t.poll(T0 + s(500)).is_empty());
    assert_eq!(t.next_event_at(), None);
    t.resume(T0 + s(100)).expect("applies");
    assert_eq!(t.next_event_at(), Some(T0 + s(130)));
    t.pause(T0 + s(110)).expect("applies");
    t.resume(T0 + s(200) + ms(250)).expect("applies");
    // 20 + 10 + 20 = 50 s of running time.
    let due = T0 + s(220) + ms(250);
    assert!(t.poll(due - Duration::from_nanos(1)).is_empty());
    let events = t.poll(due);
    assert_eq!(kinds(&events), [Alert::Warning]);
    assert_eq!(events[0].due, due);
    assert_eq!(t.elapsed(due), s(50));
}

#[test]
fn a_late_poll_delivers_what_it_missed_in_order_with_due_times() {
    let mut t = timer(&["A", "B"], settings(s(60), s(10), 3));
    t.start(T0).expect("applies");
    let events = t.poll(T0 + s(75));
    assert_eq!(
        kinds(&events),
        [
            Alert::Warning,
            Alert::Tick(3),
            Alert::Tick(2),
            Alert::Tick(1),
            Alert::TimeUp
        ]
    );
    let dues: Vec<Duration> = events.iter().map(|e| e.due - T0).collect();
    assert_eq!(dues, [s(50), s(57), s(58), s(59), s(60)]);
    assert!(events[0].is_stale(T0 + s(75)));
    assert_eq!(events[4].lateness(T0 + s(75)), s(15));
}

#[test]
fn events_due_before_a_pause_keep_their_due_time() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    t.start(T0).expect("applies");
    t.pause(T0 + s(55)).expect("applies"); // nobody polled at 50 s
    assert_eq!(t.next_event_at(), Some(T0 + s(50)));
    let events = t.poll(T0 + s(90));
    assert_eq!(kinds(&events), [Alert::Warning]);
    assert_eq!(events[0].due, T0 + s(50));
}

#[test]
fn ticks_count_down_the_last_seconds_and_share_the_warning_instant() {
    let mut t = timer(&["A", "B"], settings(s(60), s(10), 10));
    t.start(T0).expect("applies");
    let mut seen = Vec::new();
    for step in 0..=70_000u64 {
        // A poll every millisecond: nothing early, nothing twice.
        for e in t.poll(T0 + ms(step)) {
            assert_eq!(e.due, T0 + ms(step), "{e:?} delivered late or early");
            seen.push(e.alert);
        }
    }
    let mut expected = vec![Alert::Warning];
    expected.extend((1..=10).rev().map(Alert::Tick));
    expected.push(Alert::TimeUp);
    assert_eq!(seen, expected);
}

#[test]
fn short_turns_drop_alerts_that_would_fall_before_the_start() {
    let mut t = timer(&["A", "B"], settings(ms(3_500), s(5), 4));
    t.start(T0).expect("applies");
    let events = t.poll(T0 + s(10));
    assert_eq!(
        kinds(&events),
        [
            Alert::Tick(3),
            Alert::Tick(2),
            Alert::Tick(1),
            Alert::TimeUp
        ]
    );
    assert_eq!(events[0].running, ms(500));
}

#[test]
fn a_zero_length_turn_times_out_at_once() {
    let mut t = timer(&["A", "B"], settings(Duration::ZERO, s(1), 2));
    t.start(T0).expect("applies");
    assert_eq!(kinds(&t.poll(T0)), [Alert::TimeUp]);
}

#[test]
fn end_turn_rotates_clockwise_and_starts_the_next_player_at_once() {
    let mut t = timer(&["A", "B", "C"], TimerSettings::default());
    assert_eq!(t.end_turn(T0), Err(TimerError::NotStarted));
    t.start(T0).expect("applies");
    assert_eq!(t.start(T0), Err(TimerError::AlreadyStarted));
    let mut order = vec![t.current_player()];
    let mut now = T0;
    for _ in 0..6 {
        now += s(7);
        let end = t.end_turn(now).expect("applies");
        assert_eq!(end.next, t.current_player());
        assert_eq!(t.phase(), Phase::Running);
        assert_eq!(t.remaining(now), s(60));
        order.push(t.current_player());
    }
    assert_eq!(order, [0, 1, 2, 0, 1, 2, 0]);
    // Ending a paused turn starts the next one running.
    t.pause(now + s(1)).expect("applies");
    t.end_turn(now + s(30)).expect("applies");
    assert_eq!(t.phase(), Phase::Running);
    assert_eq!(t.elapsed(now + s(31)), s(1));
    assert_eq!(t.stats()[0].total, s(7) + s(7) + s(1));
}

#[test]
fn time_up_waits_for_end_turn_and_reports_the_penalty_as_data() {
    let mut t = timer(&["A", "B"], settings(s(40), s(10), 0));
    t.start(T0).expect("applies");
    assert_eq!(t.penalty(T0 + s(39)), None);
    t.poll(T0 + s(40));
    assert_eq!(
        t.penalty(T0 + s(45)),
        Some(Penalty {
            draw: 1,
            draw_if_table_invalid: 3
        })
    );
    assert_eq!(t.remaining(T0 + s(45)), Duration::ZERO);
    assert_eq!(t.overtime(T0 + s(45)), s(5));
    assert_eq!(t.current_player(), 0, "time-up does not end the turn");
    let end = t.end_turn(T0 + s(47)).expect("applies");
    assert!(end.timed_out);
    assert_eq!(end.penalty, Some(Penalty::RULES));
    assert_eq!(end.time, s(47));
    assert_eq!(t.penalty(T0 + s(47)), None);
    let stats = t.stats()[0];
    assert_eq!((stats.turns, stats.timeouts), (1, 1));
}

#[test]
fn ending_a_turn_just_after_time_up_still_counts_the_time_out_once() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    t.start(T0).expect("applies");
    let end = t.end_turn(T0 + s(60)).expect("applies"); // nobody polled the time-up
    assert!(end.timed_out);
    let events = t.poll(T0 + s(60));
    assert_eq!(kinds(&events), [Alert::Warning, Alert::TimeUp]);
    assert!(events.iter().all(|e| e.turn == end.turn && e.player == 0));
    assert_eq!(t.stats()[0].timeouts, 1);
    assert!(t.poll(T0 + s(200)).iter().all(|e| e.turn != end.turn));
}

#[test]
fn settings_changed_mid_turn_apply_from_the_next_turn() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    t.start(T0).expect("applies");
    let tournament = TimerSettings::from_rules(&Preset::Tournament.rules());
    t.set_settings(tournament);
    assert_eq!(t.turn_settings().turn, s(60));
    assert_eq!(t.remaining(T0 + s(45)), s(15));
    assert_eq!(kinds(&t.poll(T0 + s(45))), []);
    t.end_turn(T0 + s(45)).expect("applies");
    assert_eq!(t.turn_settings(), tournament);
    assert_eq!(t.remaining(T0 + s(45)), s(40));
    let events = t.poll(T0 + s(100));
    assert_eq!(events[0].due, T0 + s(75));
    assert_eq!(events[1].due, T0 + s(85));
}

#[test]
fn statistics_count_turns_total_average_and_time_outs() {
    let mut t = timer(&["A", "B"], settings(s(30), s(5), 0));
    t.start(T0).expect("applies");
    let mut now = T0;
    // A: 10 s, 40 s (time-out); B: 20 s, 5 s + a 100 s pause.
    for (running, pause) in [(10, 0), (20, 0), (40, 0), (5, 100)] {
        if pause > 0 {
            t.pause(now + s(2)).expect("applies");
            t.resume(now + s(2 + pause)).expect("applies");
            now += s(pause);
        }
        now += s(running);
        t.end_turn(now).expect("applies");
    }
    let [a, b] = [t.stats()[0], t.stats()[1]];
    assert_eq!((a.turns, a.total, a.timeouts), (2, s(50), 1));
    assert_eq!((b.turns, b.total, b.timeouts), (2, s(25), 0));
    assert_eq!(a.average(), Some(s(25)));
    assert_eq!(b.average(), Some(ms(12_500)));
    t.reset();
    assert_eq!(t.phase(), Phase::Idle);
    assert_eq!(t.stats(), [PlayerStats::default(); 2]);
}

#[test]
fn display_changes_on_whole_seconds_and_the_engine_says_when() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    assert_eq!(t.next_display_change_at(T0), None);
    assert_eq!(t.display_seconds(T0), 60);
    t.start(T0).expect("applies");
    assert_eq!(t.next_display_change_at(T0), Some(T0 + s(1)));
    assert_eq!(t.next_display_change_at(T0 + ms(300)), Some(T0 + s(1)));
    assert_eq!(t.next_display_change_at(T0 + s(1)), Some(T0 + s(2)));
    assert_eq!(t.display_seconds(T0 + ms(999)), 60);
    assert_eq!(t.display_seconds(T0 + s(1)), 59);
    // After time-up the overtime seconds tick on.
    assert_eq!(t.next_display_change_at(T0 + s(60)), Some(T0 + s(61)));
    assert_eq!(t.next_display_change_at(T0 + ms(61_500)), Some(T0 + s(62)));
    t.pause(T0 + s(3)).expect("applies");
    assert_eq!(t.next_display_change_at(T0 + s(4)), None);
}

#[test]
fn commands_that_do_not_apply_are_refused_without_side_effects() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    assert_eq!(t.pause(T0), Err(TimerError::NotStarted));
    assert_eq!(t.resume(T0), Err(TimerError::NotStarted));
    t.toggle(T0).expect("applies");
    assert_eq!(t.resume(T0), Err(TimerError::NotPaused));
    t.toggle(T0 + s(5)).expect("applies");
    assert_eq!(t.pause(T0 + s(6)), Err(TimerError::NotRunning));
    assert_eq!(t.phase(), Phase::Paused);
    t.toggle(T0 + s(8)).expect("applies");
    assert_eq!(t.elapsed(T0 + s(9)), s(6));
}

#[test]
fn player_lists_are_checked() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    assert_eq!(t.set_players(["X"]), Err(TimerError::PlayerCount(1)));
    assert_eq!(
        t.set_players(["1", "2", "3", "4", "5", "6", "7"]),
        Err(TimerError::PlayerCount(7))
    );
    assert_eq!(t.set_players(["X", " "]), Err(TimerError::EmptyName(1)));
    assert_eq!(
        t.set_players(["X", "Y", "X"]),
        Err(TimerError::DuplicateName("X".into()))
    );
    // The same seat rule as the score sheet: names differing only in case are one player.
    assert_eq!(
        t.set_players(["Ann", "ann"]),
        Err(TimerError::DuplicateName("ann".into()))
    );
    assert_eq!(t.rename_player(9, "Z"), Err(TimerError::NoSuchPlayer(9)));
    assert_eq!(
        t.rename_player(0, "B"),
        Err(TimerError::DuplicateName("B".into()))
    );
    assert_eq!(
        t.players(),
        ["A", "B"],
        "a refused change leaves the players alone"
    );
    assert_eq!(TimerError::EmptyName(1).to_string(), "player 2 has no name");
    assert!(Timer::new(["only one"], TimerSettings::default()).is_err());
    t.set_players(["D", "A", "E", "F", "G", "H"])
        .expect("applies");
    t.set_current_player(4).expect("applies");
    assert_eq!(t.set_current_player(6), Err(TimerError::NoSuchPlayer(6)));
    t.start(T0).expect("applies");
    assert_eq!(t.current_player(), 4);
    assert_eq!(t.set_current_player(0), Err(TimerError::TurnInProgress));
}

#[test]
fn players_change_with_the_clock_paused_and_keep_their_statistics_by_name() {
    let mut t = timer(&["A", "B", "C"], TimerSettings::default());
    t.start(T0).expect("applies");
    t.end_turn(T0 + s(10)).expect("applies"); // A 10 s
    t.end_turn(T0 + s(30)).expect("applies"); // B 20 s; now C's turn
    assert_eq!(t.set_players(["C", "A"]), Err(TimerError::ClockRunning));
    t.rename_player(1, " Bea ").expect("applies"); // allowed while running
    assert_eq!(t.players(), ["A", "Bea", "C"]);
    t.pause(T0 + s(35)).expect("applies");
    assert_eq!(
        t.set_players(["A", "Bea"]),
        Err(TimerError::CurrentPlayerRemoved("C".into()))
    );
    // B leaves, D joins, C moves to seat 0 and keeps the turn in progress.
    t.set_players(["C", "D", "A"]).expect("applies");
    assert_eq!(t.current_player(), 0);
    assert_eq!(t.phase(), Phase::Paused);
    assert_eq!(t.elapsed(T0 + s(99)), s(5));
    assert_eq!(t.stats()[1], PlayerStats::default());
    assert_eq!(t.stats()[2].total, s(10));
    t.resume(T0 + s(40)).expect("applies");
    let end = t.end_turn(T0 + s(45)).expect("applies");
    assert_eq!((end.player, end.next, end.time), (0, 1, s(10)));
    assert_eq!(t.stats()[0].total, s(10));
}

// ---------------------------------------------------------------------------------------------
// 1,000 simulated turns against a model.

/// splitmix64: a small deterministic generator, so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The model of one turn: its stretches of running time and what it should deliver.
#[derive(Clone, Debug)]
struct ModelTurn {
    id: u64,
    player: usize,
    /// (start instant, running time before it, end instant if closed)
    stretches: Vec<(Duration, Duration, Option<Duration>)>,
    expected: Vec<(Duration, Alert)>,
    delivered: usize,
    length: Duration,
}

impl ModelTurn {
    fn new(id: u64, player: usize, settings: TimerSettings, now: Duration) -> ModelTurn {
        ModelTurn {
            id,
            player,
            stretches: vec![(now, Duration::ZERO, None)],
            expected: expected_schedule(settings),
            delivered: 0,
            length: settings.turn,
        }
    }

    fn elapsed(&self, now: Duration) -> Duration {
        self.stretches
            .iter()
            .map(|&(start, _, end)| end.unwrap_or(now) - start)
            .sum()
    }

    fn running(&self) -> bool {
        self.stretches.last().is_some_and(|s| s.2.is_none())
    }

    fn pause(&mut self, now: Duration) {
        if let Some(last) = self.stretches.last_mut() {
            last.2.get_or_insert(now);
        }
    }

    fn resume(&mut self, now: Duration) {
        let before = self.elapsed(now);
        self.stretches.push((now, before, None));
    }

    /// The instant running time `running` was reached, if it has been by `now`.
    fn instant_of(&self, running: Duration, now: Duration) -> Option<Duration> {
        self.stretches.iter().find_map(|&(start, before, end)| {
            let len = end.unwrap_or(now) - start;
            (before <= running && running <= before + len).then(|| start + (running - before))
        })
    }
}

/// Written independently of the engine: warning, ticks and time-up by running time.
fn expected_schedule(st: TimerSettings) -> Vec<(Duration, Alert)> {
    let mut all = Vec::new();
    if st.warning > Duration::ZERO && st.warning < st.turn {
        all.push((st.turn - st.warning, 0, Alert::Warning));
    }
    for n in 1..=st.ticks {
        if s(n.into()) < st.turn {
            all.push((st.turn - s(n.into()), 1, Alert::Tick(n)));
        }
    }
    all.push((st.turn, 2, Alert::TimeUp));
    all.sort_by_key(|&(at, rank, _)| (at, rank));
    all.into_iter().map(|(at, _, e)| (at, e)).collect()
}

struct Model {
    timer: Timer,
    turns: Vec<ModelTurn>,
    current: Option<usize>,
    stats: Vec<PlayerStats>,
    next_settings: TimerSettings,
    last_poll: Option<Duration>,
    polls: u64,
    events: u64,
}

impl Model {
    fn turn(&mut self) -> &mut ModelTurn {
        let i = self.current.expect("a turn");
        &mut self.turns[i]
    }

    fn begin(&mut self, now: Duration) {
        let id = self.timer.turn_id().expect("a turn started");
        assert!(self.turns.iter().all(|t| t.id != id), "turn id {id} reused");
        let player = self.timer.current_player();
        self.turns
            .push(ModelTurn::new(id, player, self.next_settings, now));
        self.current = Some(self.turns.len() - 1);
    }

    fn poll(&mut self, now: Duration) {
        let events = self.timer.poll(now);
        self.polls += 1;
        let mut previous_due = Duration::ZERO;
        for e in events {
            self.events += 1;
            let turn = self
                .turns
                .iter_mut()
                .find(|t| t.id == e.turn)
                .expect("event of a known turn");
            let (running, alert) = turn.expected[turn.delivered];
            assert_eq!(
                (e.alert, e.running, e.player),
                (alert, running, turn.player)
            );
            let due = turn.instant_of(running, now).expect("reached");
            assert_eq!(e.due, due, "{e:?}");
            assert!(e.due <= now, "{e:?} delivered before it was due");
            if let Some(previous) = self.last_poll {
                assert!(e.due > previous, "{e:?} was due at the previous poll");
            }
            assert!(e.due >= previous_due, "out of order");
            previous_due = e.due;
            turn.delivered += 1;
        }
        self.last_poll = Some(now);
        // Everything reached by now has been delivered, for every turn.
        for turn in &self.turns {
            let reached = turn
                .expected
                .iter()
                .filter(|(running, _)| turn.instant_of(*running, now).is_some())
                .count();
            assert_eq!(turn.delivered, reached, "turn {} at {now:?}", turn.id);
        }
        self.check_state(now);
    }

    fn check_state(&mut self, now: Duration) {
        let turn = self.turn().clone();
        assert_eq!(self.timer.turn_id(), Some(turn.id));
        assert_eq!(self.timer.current_player(), turn.player);
        let elapsed = turn.elapsed(now);
        assert_eq!(self.timer.elapsed(now), elapsed);
        assert_eq!(
            self.timer.remaining(now),
            turn.length.saturating_sub(elapsed)
        );
        assert_eq!(self.timer.is_timed_out(now), elapsed >= turn.length);
        assert_eq!(self.timer.stats(), self.stats.as_slice());
    }

    fn end_turn(&mut self, now: Duration) {
        let end = self.timer.end_turn(now).expect("end turn");
        let turn = self.turn();
        turn.pause(now);
        let (elapsed, timed_out, player) = (
            turn.elapsed(now),
            turn.elapsed(now) >= turn.length,
            turn.player,
        );
        assert_eq!(
            (end.time, end.timed_out, end.player),
            (elapsed, timed_out, player)
        );
        let st = &mut self.stats[player];
        st.turns += 1;
        st.total += elapsed;
        st.timeouts += u32::from(timed_out);
        self.begin(now);
    }
}

fn random_settings(rng: &mut Rng) -> TimerSettings {
    let turns = [s(60), s(40), s(10), ms(3_000), ms(7_250), s(2)];
    let warnings = [s(10), s(1), Duration::ZERO, ms(2_500)];
    let ticks = [0, 0, 3, 10];
    settings(
        turns[rng.below(6) as usize],
        warnings[rng.below(4) as usize],
        ticks[rng.below(4) as usize],
    )
}

#[test]
fn a_thousand_random_turns_deliver_every_event_once_in_order_at_the_exact_running_time() {
    let mut rng = Rng(0x5EED_2024);
    let first = random_settings(&mut rng);
    let players = ["A", "B", "C", "D"];
    let mut model = Model {
        timer: timer(&players, first),
        turns: Vec::new(),
        current: None,
        stats: vec![PlayerStats::default(); players.len()],
        next_settings: first,
        last_poll: None,
        polls: 0,
        events: 0,
    };
    let mut now = T0;
    model.timer.start(now).expect("applies");
    model.begin(now);
    let mut ended = 0;
    while ended < 1_000 {
        // Irregular polls: mostly frequent with jitter, sometimes very late, sometimes exactly
        // when the engine says the next event is due (as the runtime does).
        now += match rng.below(10) {
            0 => Duration::ZERO,
            2 | 3 => model
                .timer
                .next_event_at()
                .map_or(Duration::ZERO, |due| due.saturating_sub(now)),
            1 => Duration::from_nanos(rng.below(30_000_000_000)),
            _ => Duration::from_nanos(rng.below(1_500_000_000)),
        };
        match rng.below(100) {
            0..=69 => model.poll(now),
            70..=76 => {
                if model.turn().running() {
                    model.timer.pause(now).expect("applies");
                    model.turn().pause(now);
                } else {
                    model.timer.resume(now).expect("applies");
                    model.turn().resume(now);
                }
            }
            77..=79 => {
                let st = random_settings(&mut rng);
                model.timer.set_settings(st);
                model.next_settings = st;
            }
            83..=88 => {
                model.end_turn(now);
                ended += 1;
            }
            _ => {}
        }
        model.check_state(now);
    }
    model.poll(now + s(1_000));
    let timeouts: u32 = model.stats.iter().map(|s| s.timeouts).sum();
    assert!(
        timeouts > 50,
        "the simulation exercised time-outs ({timeouts})"
    );
    assert!(model.events > 2_000, "and events ({})", model.events);
    println!(
        "{ended} turns, {timeouts} time-outs, {} events, {} polls",
        model.events, model.polls
    );
}

// ---------------------------------------------------------------------------------------------
// Chess-clock mode: a time bank per player, a Fischer increment per finished turn.

fn chess(bank: Duration, increment: Duration) -> TimerMode {
    TimerMode::ChessClock(ChessClock { bank, increment })
}

fn chess_timer(players: &[&str], bank: Duration, increment: Duration) -> Timer {
    let mut t = timer(players, TimerSettings::default());
    t.set_mode(chess(bank, increment));
    t
}

/// Every seat's bank at `now`.
fn banks(t: &Timer, now: Duration) -> Vec<Duration> {
    (0..t.players().len())
        .map(|seat| t.bank(seat, now).expect("a chess clock"))
        .collect()
}

#[test]
fn chess_clock_banks_and_increments_over_a_game_are_exact() {
    let mut t = chess_timer(&["A", "B", "C"], s(60), s(5));
    assert_eq!(t.game_mode(), chess(s(60), s(5)));
    assert_eq!(t.remaining(T0), s(60), "idle: the starting player's bank");
    t.start(T0).expect("applies");
    assert_eq!(banks(&t, T0 + ms(12_500)), [ms(47_500), s(60), s(60)]);
    let end = t.end_turn(T0 + ms(12_500)).expect("applies");
    assert_eq!(
        (end.player, end.time, end.timed_out, end.penalty, end.next),
        (0, ms(12_500), false, None, 1)
    );
    assert_eq!(banks(&t, T0 + ms(12_500)), [ms(52_500), s(60), s(60)]);
    let mut now = T0 + ms(12_500);
    assert_eq!(t.remaining(now + s(20)), s(40));
    now += s(30);
    t.end_turn(now).expect("applies"); // B: 60 − 30 + 5
    // C thinks 5 s, pauses for 100 s, plays 20 s more.
    t.pause(now + s(5)).expect("applies");
    assert_eq!(t.bank(2, now + s(105)), Some(s(55)), "a pause does not run");
    t.resume(now + s(105)).expect("applies");
    now += s(125);
    t.end_turn(now).expect("applies"); // C: 60 − 25 + 5
    assert_eq!(banks(&t, now), [ms(52_500), s(35), s(40)]);
    // A starts with 52.5 s: the display shows 53 and changes when 52 s are left.
    assert_eq!(t.display_seconds(now), 53);
    assert_eq!(t.next_display_change_at(now), Some(now + ms(500)));
    assert_eq!(
        t.next_event_at(),
        Some(now + ms(42_500)),
        "warning at 10 s left"
    );
    now += s(50);
    t.end_turn(now).expect("applies"); // A: 2.5 + 5
    now += s(1);
    t.end_turn(now).expect("applies"); // B: 34 + 5
    assert_eq!(banks(&t, now), [ms(7_500), s(39), s(40)]);
    let [a, b, c] = [t.stats()[0], t.stats()[1], t.stats()[2]];
    assert_eq!((a.turns, a.total, a.timeouts), (2, ms(62_500), 0));
    assert_eq!((b.turns, b.total, b.timeouts), (2, s(31), 0));
    assert_eq!((c.turns, c.total, c.timeouts), (1, s(25), 0));
    assert!(t.flagged(now).is_empty());
}

#[test]
fn chess_clock_warns_at_10_s_left_in_the_bank_and_ticks_its_last_seconds() {
    let mut t = timer(&["A", "B"], settings(s(60), s(10), 3));
    t.set_mode(chess(s(120), s(2)));
    t.start(T0).expect("applies");
    let nano = Duration::from_nanos(1);
    assert!(t.poll(T0 + s(110) - nano).is_empty());
    let warning = t.poll(T0 + s(110));
    assert_eq!(kinds(&warning), [Alert::Warning]);
    assert_eq!((warning[0].due, warning[0].running), (T0 + s(110), s(110)));
    assert_eq!(t.display_seconds(T0 + s(110)), 10);
    t.end_turn(T0 + s(115)).expect("applies"); // A: 5 s left + 2
    t.end_turn(T0 + s(145)).expect("applies"); // B: 90 + 2
    assert_eq!(banks(&t, T0 + s(145)), [s(7), s(92)]);
    // A starts below the warning time: no warning, ticks at 3, 2 and 1 s left, then the flag.
    let events = t.poll(T0 + s(200));
    assert_eq!(
        kinds(&events),
        [
            Alert::Tick(3),
            Alert::Tick(2),
            Alert::Tick(1),
            Alert::TimeUp
        ]
    );
    let dues: Vec<Duration> = events.iter().map(|e| e.due - T0).collect();
    assert_eq!(dues, [s(149), s(150), s(151), s(152)]);
    assert!(events.iter().all(|e| e.player == 0));
}

#[test]
fn chess_clock_flags_at_zero_once_and_the_table_decides() {
    let mut t = chess_timer(&["A", "B"], s(30), s(10));
    t.start(T0).expect("applies");
    let nano = Duration::from_nanos(1);
    assert_eq!(kinds(&t.poll(T0 + s(30) - nano)), [Alert::Warning]);
    assert!(!t.is_flagged(0, T0 + s(30) - nano));
    assert!(!t.is_timed_out(T0 + s(30) - nano));
    let up = t.poll(T0 + s(30));
    assert_eq!(kinds(&up), [Alert::TimeUp]);
    assert_eq!(up[0].due, T0 + s(30));
    assert!(t.is_flagged(0, T0 + s(30)));
    assert!(!t.is_flagged(1, T0 + s(30)));
    assert_eq!(t.flagged(T0 + s(30)), [0]);
    assert!(t.is_timed_out(T0 + s(30)));
    assert_eq!(t.penalty(T0 + s(45)), None, "a flag has no draw penalty");
    assert_eq!(t.remaining(T0 + s(45)), Duration::ZERO);
    assert_eq!(t.display_seconds(T0 + s(45)), 0);
    assert_eq!(t.overtime(T0 + s(45)), s(15));
    assert_eq!(t.next_display_change_at(T0 + ms(45_500)), Some(T0 + s(46)));
    assert_eq!(t.next_event_at(), None);
    assert!(t.poll(T0 + s(3_600)).is_empty(), "the alarm sounds once");
    assert_eq!(t.current_player(), 0, "the engine does not end the turn");
    let end = t.end_turn(T0 + s(47)).expect("applies");
    assert!(end.timed_out);
    assert_eq!(end.penalty, None);
    assert_eq!(
        t.bank(0, T0 + s(47)),
        Some(Duration::ZERO),
        "no increment for a flagged player, no debt either"
    );
    t.end_turn(T0 + s(57)).expect("applies"); // B: 20 + 10
    assert_eq!(banks(&t, T0 + s(57)), [Duration::ZERO, s(30)]);
    // A's next turn starts out of time, with no second alarm.
    assert!(t.is_timed_out(T0 + s(57)));
    assert_eq!(t.overtime(T0 + s(60)), s(3));
    assert_eq!(t.next_event_at(), None);
    assert!(t.poll(T0 + s(200)).is_empty());
    let end = t.end_turn(T0 + s(64)).expect("applies");
    assert!(end.timed_out);
    assert_eq!(t.flagged(T0 + s(64)), [0]);
    assert_eq!((t.stats()[0].turns, t.stats()[0].timeouts), (2, 2));
    t.reset();
    assert!(t.flagged(T0 + s(64)).is_empty());
    assert_eq!(banks(&t, T0 + s(64)), [s(30), s(30)]);
}

#[test]
fn chess_clock_banks_do_not_run_while_paused() {
    let mut t = chess_timer(&["A", "B"], s(60), s(10));
    t.start(T0).expect("applies");
    t.pause(T0 + s(20)).expect("applies");
    assert_eq!(banks(&t, T0 + s(500)), [s(40), s(60)]);
    assert!(t.poll(T0 + s(500)).is_empty());
    assert_eq!(t.next_event_at(), None);
    assert_eq!(t.next_display_change_at(T0 + s(500)), None);
    t.resume(T0 + s(600)).expect("applies");
    assert_eq!(t.next_event_at(), Some(T0 + s(630)));
    let events = t.poll(T0 + s(700));
    assert_eq!(kinds(&events), [Alert::Warning, Alert::TimeUp]);
    assert_eq!(events[1].due, T0 + s(640));
    // Ending a paused turn: the bank is what it was at the pause, plus the increment.
    let mut t = chess_timer(&["A", "B"], s(60), s(10));
    t.start(T0).expect("applies");
    t.pause(T0 + s(15)).expect("applies");
    t.end_turn(T0 + s(90)).expect("applies");
    assert_eq!(banks(&t, T0 + s(90)), [s(55), s(60)]);
}

#[test]
fn chess_clock_mode_changes_apply_before_a_game_or_at_reset() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    assert_eq!(t.bank(0, T0), None, "per-turn mode has no banks");
    assert!(!t.is_flagged(0, T0));
    t.set_mode(chess(s(300), s(5)));
    assert_eq!(banks(&t, T0), [s(300), s(300)], "idle: at once");
    t.start(T0).expect("applies");
    // Mid-game: the bank size and mode wait for the reset, the increment does not.
    t.set_mode(chess(s(600), s(20)));
    assert_eq!(t.mode(), chess(s(600), s(20)));
    assert_eq!(t.game_mode(), chess(s(300), s(20)));
    t.end_turn(T0 + s(30)).expect("applies");
    assert_eq!(banks(&t, T0 + s(30)), [s(290), s(300)]);
    t.set_mode(TimerMode::PerTurn);
    assert_eq!(t.game_mode(), chess(s(300), s(20)));
    assert_eq!(t.remaining(T0 + s(40)), s(290));
    t.reset();
    assert_eq!(t.game_mode(), TimerMode::PerTurn);
    assert_eq!(t.bank(0, T0), None);
    t.start(T0 + s(100)).expect("applies");
    assert_eq!(t.remaining(T0 + s(100)), s(60));
    assert_eq!(t.penalty(T0 + s(160)), Some(Penalty::RULES));
    // A new bank size applies at the reset.
    t.set_mode(chess(s(90), s(0)));
    assert_eq!(t.bank(0, T0 + s(160)), None);
    t.reset();
    assert_eq!(banks(&t, T0 + s(160)), [s(90), s(90)]);
}

#[test]
fn chess_clock_banks_follow_the_players_by_name() {
    let mut t = chess_timer(&["A", "B", "C"], s(60), s(10));
    t.start(T0).expect("applies");
    t.end_turn(T0 + s(20)).expect("applies"); // A: 50
    t.end_turn(T0 + s(50)).expect("applies"); // B: 40; C's turn
    t.rename_player(1, "Bea").expect("applies");
    assert_eq!(t.bank(1, T0 + s(50)), Some(s(40)));
    t.pause(T0 + s(55)).expect("applies");
    // C keeps the turn (and its bank) at seat 0, D joins with a full bank, Bea leaves.
    t.set_players(["C", "D", "A"]).expect("applies");
    assert_eq!(banks(&t, T0 + s(99)), [s(55), s(60), s(50)]);
    t.resume(T0 + s(100)).expect("applies");
    t.end_turn(T0 + s(110)).expect("applies"); // C: 60 − 15 + 10
    assert_eq!(banks(&t, T0 + s(110)), [s(55), s(60), s(50)]);
    assert_eq!(t.current_player(), 1);
}

#[test]
fn chess_clock_banks_survive_save_and_restore_exactly() {
    let mut t = chess_timer(&["A", "B"], s(120), ms(2_500));
    t.start(T0).expect("applies");
    t.end_turn(T0 + ms(30_125)).expect("applies"); // A: 92.375
    t.poll(T0 + ms(145_000)); // B's warning (at 110 s running) sounded
    let saved = t.saved(T0 + ms(145_000));
    assert_eq!(
        saved.chess,
        Some(SavedChessClock {
            bank_ms: 120_000,
            increment_ms: 2_500
        })
    );
    assert_eq!(
        saved.banks_ms,
        [92_375, 120_000],
        "B's bank at the start of B's turn"
    );
    assert_eq!(saved.turn_ms, Some(114_875));
    let json = serde_json::to_string(&saved).expect("serialises");
    let loaded: SavedTimer = serde_json::from_str(&json).expect("loads");
    assert_eq!(loaded, saved);
    let mut back = Timer::restore(&loaded, TimerSettings::default(), s(9)).expect("restores");
    assert_eq!(back.phase(), Phase::Paused);
    assert_eq!(back.game_mode(), chess(s(120), ms(2_500)));
    assert_eq!(back.mode(), back.game_mode());
    assert_eq!(banks(&back, s(50)), [ms(92_375), ms(5_125)]);
    back.resume(s(50)).expect("applies");
    let events = back.poll(s(60));
    assert_eq!(
        kinds(&events),
        [Alert::TimeUp],
        "the warning is not repeated"
    );
    assert_eq!(events[0].due, s(50) + ms(5_125));
    assert_eq!(back.flagged(s(60)), [1]);
    assert_eq!(back.saved(s(60)).banks_ms, saved.banks_ms);
    // A saved file missing a seat's bank gives that seat a full bank.
    let short = SavedTimer {
        banks_ms: vec![1_000],
        ..saved.clone()
    };
    let back = Timer::restore(&short, TimerSettings::default(), s(9)).expect("restores");
    assert_eq!(banks(&back, s(9)), [s(1), s(120) - ms(114_875)]);
}

#[test]
fn per_turn_saves_are_unchanged_and_old_saves_load_as_per_turn() {
    let mut t = timer(&["A", "B"], TimerSettings::default());
    t.start(T0).expect("applies");
    let json = serde_json::to_string(&t.saved(T0 + s(5))).expect("serialises");
    assert!(!json.contains("chess") && !json.contains("banks"), "{json}");
    let old =
        r#"{"players":["A","B"],"stats":[],"current":1,"turn_ms":4000,"running":true,"last_id":3}"#;
    let saved: SavedTimer = serde_json::from_str(old).expect("an old file loads");
    assert_eq!((saved.chess, saved.banks_ms.len()), (None, 0));
    let back = Timer::restore(&saved, TimerSettings::default(), s(0)).expect("restores");
    assert_eq!(back.game_mode(), TimerMode::PerTurn);
    assert_eq!(back.remaining(s(1)), s(56));
}

#[test]
fn chess_clock_undo_snapshots_rebase_to_the_bank_they_had() {
    let mut t = chess_timer(&["A", "B"], s(60), s(10));
    t.start(T0).expect("applies");
    let snapshot = t.clone(); // taken at T0 + 12 s
    t.end_turn(T0 + s(20)).expect("applies");
    let back = snapshot.rebased(T0 + s(12), T0 + s(40));
    assert_eq!(banks(&back, T0 + s(40)), [s(48), s(60)]);
    assert_eq!(back.next_event_at(), Some(T0 + s(78)));
}

#[test]
fn chess_clock_rules_load_validate_and_convert() {
    // A settings file from before chess-clock mode loads as per-turn with default values.
    let old: RuleSet = serde_json::from_str(r#"{"turn_seconds": 45}"#).expect("loads");
    assert_eq!(
        (old.clock_mode, old.bank_minutes, old.increment_seconds),
        (ClockMode::PerTurn, 10, 10)
    );
    for preset in Preset::ALL {
        assert_eq!(TimerMode::from_rules(&preset.rules()), TimerMode::PerTurn);
    }
    let rules = RuleSet {
        clock_mode: ClockMode::ChessClock,
        bank_minutes: 90,
        increment_seconds: 30,
        ..RuleSet::default()
    };
    assert!(rules.validate().is_ok());
    assert_eq!(TimerMode::from_rules(&rules), chess(s(5_400), s(30)));
    let json = serde_json::to_string(&rules).expect("serialises");
    assert!(json.contains(r#""clock_mode":"chess_clock""#), "{json}");
    assert_eq!(serde_json::from_str::<RuleSet>(&json).ok(), Some(rules));
    let error = |r: RuleSet| r.validate().map_err(|e| e.to_string());
    assert_eq!(
        error(RuleSet {
            bank_minutes: 0,
            ..rules
        }),
        Err("time bank 0 min is outside 1–120 min".into())
    );
    assert_eq!(
        error(RuleSet {
            bank_minutes: 121,
            ..rules
        }),
        Err("time bank 121 min is outside 1–120 min".into())
    );
    assert_eq!(
        error(RuleSet {
            increment_seconds: 61,
            ..rules
        }),
        Err("increment 61 s is outside 0–60 s".into())
    );
    assert!(
        RuleSet {
            bank_minutes: 1,
            increment_seconds: 0,
            ..rules
        }
        .validate()
        .is_ok()
    );
}

// ---------------------------------------------------------------------------------------------
// 1,000 simulated chess-clock turns against a model.

/// The model's schedule of a chess-clock turn starting with `bank`: the per-turn schedule of a
/// turn as long as the bank, without the alarm when the bank is already empty.
fn expected_chess_schedule(st: TimerSettings, bank: Duration) -> Vec<(Duration, Alert)> {
    let mut all = expected_schedule(TimerSettings { turn: bank, ..st });
    if bank.is_zero() {
        all.retain(|&(_, e)| e != Alert::TimeUp);
    }
    all
}

struct ChessModel {
    timer: Timer,
    turns: Vec<ModelTurn>,
    current: usize,
    stats: Vec<PlayerStats>,
    /// Each seat's bank; the current player's at the start of the turn.
    banks: Vec<Duration>,
    settings: TimerSettings,
    /// The game's clock, and the one the next game starts with.
    clock: ChessClock,
    next_clock: ChessClock,
    events: u64,
    flags: u64,
    increments: u64,
    last_poll: Option<Duration>,
}

impl ChessModel {
    fn begin(&mut self, now: Duration) {
        let id = self.timer.turn_id().expect("a turn started");
        assert!(self.turns.iter().all(|t| t.id != id), "turn id {id} reused");
        let player = self.timer.current_player();
        let bank = self.banks[player];
        self.turns.push(ModelTurn {
            id,
            player,
            stretches: vec![(now, Duration::ZERO, None)],
            expected: expected_chess_schedule(self.settings, bank),
            delivered: 0,
            length: bank,
        });
        self.current = self.turns.len() - 1;
    }

    fn poll(&mut self, now: Duration) {
        let events = self.timer.poll(now);
        let mut previous_due = Duration::ZERO;
        for e in events {
            self.events += 1;
            let turn = self
                .turns
                .iter_mut()
                .find(|t| t.id == e.turn)
                .expect("event of a known turn");
            let (running, alert) = turn.expected[turn.delivered];
            assert_eq!(
                (e.alert, e.running, e.player),
                (alert, running, turn.player)
            );
            assert_eq!(e.due, turn.instant_of(running, now).expect("reached"));
            if let Some(previous) = self.last_poll {
                assert!(e.due > previous, "{e:?} was due at the previous poll");
            }
            assert!(e.due >= previous_due && e.due <= now, "{e:?}");
            previous_due = e.due;
            if e.alert == Alert::TimeUp {
                self.flags += 1;
            }
            turn.delivered += 1;
        }
        self.last_poll = Some(now);
        for turn in &self.turns {
            let reached = turn
                .expected
                .iter()
                .filter(|(running, _)| turn.instant_of(*running, now).is_some())
                .count();
            assert_eq!(turn.delivered, reached, "turn {} at {now:?}", turn.id);
        }
    }

    fn check(&self, now: Duration) {
        let turn = &self.turns[self.current];
        assert_eq!(self.timer.turn_id(), Some(turn.id));
        assert_eq!(self.timer.current_player(), turn.player);
        let elapsed = turn.elapsed(now);
        assert_eq!(self.timer.elapsed(now), elapsed);
        let expected: Vec<Duration> = (0..self.banks.len())
            .map(|seat| match seat == turn.player {
                true => turn.length.saturating_sub(elapsed),
                false => self.banks[seat],
            })
            .collect();
        assert_eq!(banks(&self.timer, now), expected, "banks at {now:?}");
        assert_eq!(self.timer.remaining(now), expected[turn.player]);
        assert_eq!(
            self.timer.overtime(now),
            elapsed.saturating_sub(turn.length)
        );
        assert_eq!(self.timer.is_timed_out(now), elapsed >= turn.length);
        let flagged: Vec<usize> = (0..expected.len())
            .filter(|&seat| expected[seat].is_zero())
            .collect();
        assert_eq!(self.timer.flagged(now), flagged);
        assert_eq!(self.timer.penalty(now), None);
        assert_eq!(self.timer.stats(), self.stats.as_slice());
    }

    fn end_turn(&mut self, now: Duration) {
        let end = self.timer.end_turn(now).expect("end turn");
        let turn = &mut self.turns[self.current];
        turn.pause(now);
        let (elapsed, player, length) = (turn.elapsed(now), turn.player, turn.length);
        let timed_out = elapsed >= length;
        assert_eq!(
            (end.time, end.timed_out, end.player, end.penalty),
            (elapsed, timed_out, player, None)
        );
        let st = &mut self.stats[player];
        st.turns += 1;
        st.total += elapsed;
        st.timeouts += u32::from(timed_out);
        self.banks[player] = if timed_out {
            Duration::ZERO
        } else {
            self.increments += u64::from(!self.clock.increment.is_zero());
            length - elapsed + self.clock.increment
        };
        self.begin(now);
    }

    fn new_game(&mut self, now: Duration) {
        self.poll(now);
        self.timer.reset();
        for turn in &mut self.turns {
            turn.pause(now);
        }
        self.clock = self.next_clock;
        self.banks = vec![self.clock.bank; self.banks.len()];
        self.stats = vec![PlayerStats::default(); self.banks.len()];
        self.timer.start(now).expect("applies");
        self.begin(now);
    }
}

fn random_clock(rng: &mut Rng) -> ChessClock {
    let banks = [s(20), s(45), ms(7_500), s(90)];
    let increments = [Duration::ZERO, s(2), s(5), ms(1_500)];
    ChessClock {
        bank: banks[rng.below(4) as usize],
        increment: increments[rng.below(4) as usize],
    }
}

#[test]
fn a_thousand_random_chess_clock_turns_keep_every_bank_exact() {
    let mut rng = Rng(0xC10C_2026);
    let first = random_settings(&mut rng);
    let clock = random_clock(&mut rng);
    let players = ["A", "B", "C"];
    let mut t = timer(&players, first);
    t.set_mode(TimerMode::ChessClock(clock));
    let mut model = ChessModel {
        timer: t,
        turns: Vec::new(),
        current: 0,
        stats: vec![PlayerStats::default(); players.len()],
        banks: vec![clock.bank; players.len()],
        settings: first,
        clock,
        next_clock: clock,
        events: 0,
        flags: 0,
        increments: 0,
        last_poll: None,
    };
    let mut now = T0;
    model.timer.start(now).expect("applies");
    model.begin(now);
    let (mut ended, mut games) = (0, 1);
    while ended < 1_000 {
        now += match rng.below(10) {
            0 => Duration::ZERO,
            2 | 3 => model
                .timer
                .next_event_at()
                .map_or(Duration::ZERO, |due| due.saturating_sub(now)),
            1 => Duration::from_nanos(rng.below(30_000_000_000)),
            _ => Duration::from_nanos(rng.below(1_500_000_000)),
        };
        match rng.below(100) {
            0..=64 => model.poll(now),
            65..=71 => {
                if model.turns[model.current].running() {
                    model.timer.pause(now).expect("applies");
                    model.turns[model.current].pause(now);
                } else {
                    model.timer.resume(now).expect("applies");
                    model.turns[model.current].resume(now);
                }
            }
            72..=73 => {
                let st = random_settings(&mut rng);
                model.timer.set_settings(st);
                model.settings = st;
            }
            74 => {
                // Mid-game: only the increment changes now, the rest at the next game.
                let next = random_clock(&mut rng);
                model.timer.set_mode(TimerMode::ChessClock(next));
                model.next_clock = next;
                model.clock.increment = next.increment;
            }
            76 => {
                model.new_game(now);
                games += 1;
            }
            81..=87 => {
                model.end_turn(now);
                ended += 1;
            }
            _ => {}
        }
        model.check(now);
    }
    model.poll(now + s(1_000));
    let timeouts: u32 = model.stats.iter().map(|s| s.timeouts).sum();
    assert!(games > 10, "the simulation exercised new games ({games})");
    assert!(model.flags > 20, "and flags ({})", model.flags);
    assert!(
        model.increments > 150,
        "and increments ({})",
        model.increments
    );
    assert!(model.events > 1_000, "and events ({})", model.events);
    println!(
        "{ended} turns, {games} games, {} flags, \
         {} increments, {} events, {timeouts} time-outs in the last game",
        model.flags, model.increments, model.events
    );
}
