//! # rummikub-companion
//!
//! The engine and adapters behind a table-side Rummikub companion: a turn timer with sound, an
//! initial-meld checker and solver, and a multi-game score sheet, in Korean and English.
//!
//! The engine modules ([`tile`], [`meld`], [`solver`], [`rules`], [`score`], [`timer`],
//! [`history`], [`event`] — a club night's seating, rounds and standings) are pure: no GUI, audio, file or clock, time is passed in. That is what lets the
//! rules be tested exhaustively. The adapters around them wrap the outside world: [`store`]
//! (files), [`sound`] (audio), [`runtime`] (the real clock and a timer thread), [`server`] (the
//! phones' page on the local network), [`i18n`] (Korean and English strings) and [`cli`]
//! (subcommands). Above them, without any window: [`evening`], the one owner of everything a
//! table keeps while it plays (settings, clock, sheets, drafts, undo history), with one
//! `apply` that the window and the phone server both call. On top, [`ui`] (the egui window),
//! which only draws the evening and asks it for changes.
//!
//! ```
//! use rummikub_companion::meld::{check_meld, MeldOptions};
//! use rummikub_companion::tile::parse_sets;
//!
//! let laid = parse_sets("R11 J R13").unwrap();
//! let verdict = check_meld(&laid, MeldOptions::default());
//! assert!(verdict.is_valid());
//! assert_eq!(verdict.total, 36); // the joker stands for R12
//! ```

pub mod cli;
pub mod club;
pub mod evening;
pub mod event;
pub mod history;
pub mod i18n;
pub mod lang;
pub mod meld;
pub mod play;
pub mod referee;
pub mod rules;
pub mod runtime;
pub mod score;
pub mod server;
pub mod solver;
pub mod sound;
pub mod speech;
pub mod store;
pub mod tile;
pub mod timer;
pub mod ui;
