//! # rummikub-companion
//!
//! The engine and adapters behind a table-side Rummikub companion: a turn timer with sound, an
//! initial-meld checker and solver, and a multi-game score sheet, in Korean and English.
//!
//! The engine modules ([`tile`], [`meld`], [`rules`]) are pure: no GUI, audio, file or clock.
//! That is what lets the rules be tested exhaustively; the adapters around them ([`cli`]) only
//! parse input and present verdicts.
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
pub mod meld;
pub mod rules;
pub mod solver;
pub mod tile;
