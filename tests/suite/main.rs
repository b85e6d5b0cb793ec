//! Every integration test in one binary: each test binary links egui, so one binary (with a
//! module per area) keeps a clean `cargo test` short. Shared helpers live in `util`.

mod browser;
mod check;
mod cli_check;
mod cli_score;
mod club;
mod evening;
mod event;
mod event_cli;
mod event_host_kill;
mod event_kill;
mod event_serve;
mod event_tables;
mod event_ui;
mod export;
mod export_card;
mod history;
mod i18n;
mod netns;
mod peer;
mod play;
mod purity;
mod referee;
mod regression;
mod runtime;
mod server;
mod sheet_match;
mod solver;
mod sound_output;
mod sounds;
mod speech;
mod store;
mod timer;
mod ui;
mod util;
mod window;
