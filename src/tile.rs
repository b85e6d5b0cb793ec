//! Tiles and the notation people type for them.
//!
//! A tile is stored as one byte (`0..52` numbered, `52` joker) so that racks can be counted in
//! small arrays by the solver and compared cheaply everywhere else. The notation accepts what
//! players actually type at a table, in English or Korean (`R7`, `k13`, `빨강7`, `빨 7`, `조커`),
//! and always prints the one canonical form (`R7`, `J`), so `FromStr` and `Display` round-trip
//! and serde goes through them: the saved form is the human form.

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The four tile colours, in the order used for display and sorting.
///
/// # Example
/// ```
/// use rummikub_companion::tile::Color;
/// assert_eq!(Color::Black.letter(), 'K');
/// assert_eq!(Color::ALL.len(), 4);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Red (`R`, 빨강).
    Red,
    /// Blue (`B`, 파랑).
    Blue,
    /// Black (`K`, 검정).
    Black,
    /// Orange, called yellow in some editions (`O` or `Y`, 주황 / 노랑).
    Orange,
}

impl Color {
    /// Every colour in display order.
    pub const ALL: [Color; 4] = [Color::Red, Color::Blue, Color::Black, Color::Orange];

    /// The canonical letter: `R`, `B`, `K` or `O`.
    pub const fn letter(self) -> char {
        match self {
            Color::Red => 'R',
            Color::Blue => 'B',
            Color::Black => 'K',
            Color::Orange => 'O',
        }
    }

    /// The English colour word used in messages ("red").
    pub const fn name(self) -> &'static str {
        match self {
            Color::Red => "red",
            Color::Blue => "blue",
            Color::Black => "black",
            Color::Orange => "orange",
        }
    }

    /// Position in [`Color::ALL`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Reads a colour word or letter in any accepted spelling (case-insensitive).
    pub fn from_word(word: &str) -> Option<Color> {
        let upper = word.to_uppercase();
        Some(match upper.as_str() {
            "R" | "빨강" | "빨" | "적" => Color::Red,
            "B" | "파랑" | "파" | "청" => Color::Blue,
            "K" | "검정" | "검" | "흑" => Color::Black,
            "O" | "Y" | "주황" | "주" | "노랑" | "노" => Color::Orange,
            _ => return None,
        })
    }
}

/// Lowest tile number.
pub const MIN_NUMBER: u8 = 1;
/// Highest tile number.
pub const MAX_NUMBER: u8 = 13;
/// Number of distinct tile faces: 52 numbered + the joker.
pub const FACES: usize = 53;

/// One tile: a coloured number from 1 to 13, or a joker.
///
/// # Example
/// ```
/// use rummikub_companion::tile::{Color, Tile};
/// let t: Tile = "빨강7".parse().unwrap();
/// assert_eq!(t, Tile::numbered(Color::Red, 7).unwrap());
/// assert_eq!(t.to_string(), "R7");
/// assert_eq!("joker".parse::<Tile>().unwrap(), Tile::JOKER);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile(u8);

impl Tile {
    /// The joker.
    pub const JOKER: Tile = Tile(52);

    /// A numbered tile, or `None` when the number is outside 1–13.
    pub const fn numbered(color: Color, number: u8) -> Option<Tile> {
        if number < MIN_NUMBER || number > MAX_NUMBER {
            return None;
        }
        Some(Tile(color as u8 * 13 + number - 1))
    }

    /// The tile with the given face index (`0..53`, see [`Tile::index`]).
    pub const fn from_index(index: usize) -> Option<Tile> {
        if index < FACES {
            Some(Tile(index as u8))
        } else {
            None
        }
    }

    /// Face index: `color × 13 + number − 1` for numbered tiles, 52 for the joker.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// True for the joker.
    pub const fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// The colour, `None` for the joker.
    pub const fn color(self) -> Option<Color> {
        match self.0 / 13 {
            0 => Some(Color::Red),
            1 => Some(Color::Blue),
            2 => Some(Color::Black),
            3 => Some(Color::Orange),
            _ => None,
        }
    }

    /// The printed number, `None` for the joker.
    pub const fn number(self) -> Option<u8> {
        if self.is_joker() {
            None
        } else {
            Some(self.0 % 13 + 1)
        }
    }

    /// Every numbered tile face, red 1 first, then the joker last.
    pub fn all_faces() -> impl Iterator<Item = Tile> {
        (0..FACES as u8).map(Tile)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.color(), self.number()) {
            (Some(c), Some(n)) => write!(f, "{}{}", c.letter(), n),
            _ => f.write_str("J"),
        }
    }
}

/// Longest piece of user input echoed in a message, in characters; longer input is cut.
pub const ECHO_CHARS: usize = 40;

/// User input as echoed in a message: at most [`ECHO_CHARS`] characters, then `…` when cut, so
/// a pasted megabyte never floods a terminal or a notice.
///
/// # Example
/// ```
/// use rummikub_companion::tile::shorten;
/// assert_eq!(shorten("R14"), "R14");
/// assert_eq!(shorten(&"X".repeat(1_000_000)), format!("{}…", "X".repeat(40)));
/// ```
pub fn shorten(text: &str) -> String {
    match text.char_indices().nth(ECHO_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// Whether a character is never written to a terminal as it is: C0 controls other than the
/// line feed and the tab, DEL, C1 controls, and the bidirectional formatting characters (an
/// override such as U+202E shows a name or a path backwards, hiding what it really says).
pub fn is_unprintable(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Text from outside (an argument, a file's cell, a file name) made safe for a terminal: every
/// [unprintable](is_unprintable) character is dropped, and an escape sequence goes whole —
/// `ESC[31m` (CSI, also as the one-byte C1 form), `ESC]…BEL` (OSC, also ended by `ESC\` or a
/// line end) and the other `ESC` sequences — so no input can recolour, retitle or rewrite the
/// terminal. Line feeds and tabs stay. Borrows when there is nothing to drop.
///
/// # Example
/// ```
/// use rummikub_companion::tile::printable;
/// assert_eq!(printable("R5\u{1b}[31mK7\u{1b}[0m"), "R5K7");
/// assert_eq!(printable("Ann\u{202e}oB"), "AnnoB");
/// assert_eq!(printable("\u{1b}]0;title\u{7}빨강7\n"), "빨강7\n");
/// assert!(matches!(printable("R5 K7"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unprintable) {
        return Cow::Borrowed(text);
    }
    /// Where the reader is: in text, after an `ESC`, in a CSI sequence, or in a string
    /// command (OSC, DCS, SOS, PM, APC) that runs to its terminator.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum State {
        Text,
        Escape,
        Csi,
        Command,
        CommandEscape,
    }
    let mut state = State::Text;
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        // A control character (other than a sequence's own) ends a broken sequence and is
        // then read as text, so a stray ESC never swallows the line after it.
        loop {
            match state {
                State::Text => {
                    match c {
                        '\u{1b}' => state = State::Escape,
                        '\u{9b}' => state = State::Csi,
                        '\u{90}' | '\u{98}' | '\u{9d}' | '\u{9e}' | '\u{9f}' => {
                            state = State::Command;
                        }
                        c if is_unprintable(c) => {}
                        c => out.push(c),
                    }
                    break;
                }
                State::Escape => match c {
                    '[' => state = State::Csi,
                    ']' | 'P' | 'X' | '^' | '_' => state = State::Command,
                    '\u{20}'..='\u{2f}' => {}
                    c if c.is_control() || !c.is_ascii() => {
                        state = State::Text;
                        continue;
                    }
                    _ => state = State::Text,
                },
                State::Csi => match c {
                    '\u{20}'..='\u{3f}' => {}
                    '\u{40}'..='\u{7e}' => state = State::Text,
                    _ => {
                        state = State::Text;
                        continue;
                    }
                },
                State::Command | State::CommandEscape => match c {
                    '\u{7}' | '\u{9c}' => state = State::Text,
                    '\\' if state == State::CommandEscape => state = State::Text,
                    '\u{1b}' => state = State::CommandEscape,
                    '\n' => {
                        state = State::Text;
                        continue;
                    }
                    _ => state = State::Command,
                },
            }
            break;
        }
    }
    Cow::Owned(out)
}

/// Reads full-width (전각) forms as ASCII: U+FF01..U+FF5E become U+0021..U+007E and the
/// ideographic space U+3000 a plain space. A Korean IME in full-width mode types `ＲＯ１２`;
/// players mean `RO12`. Every other character is kept, one character for one, so column
/// positions in error messages stay right. Borrows when there is nothing to change.
///
/// # Example
/// ```
/// use rummikub_companion::tile::normalize_width;
/// assert_eq!(normalize_width("Ｒ１２\u{3000}｜Ｋ７"), "R12 |K7");
/// assert!(matches!(normalize_width("R12"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn normalize_width(text: &str) -> Cow<'_, str> {
    let wide = |c: char| matches!(c, '\u{FF01}'..='\u{FF5E}' | '\u{3000}');
    if !text.chars().any(wide) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\u{3000}' => ' ',
                '\u{FF01}'..='\u{FF5E}' => {
                    char::from_u32(u32::from(c) - 0xFF01 + 0x21).unwrap_or(c)
                }
                other => other,
            })
            .collect(),
    )
}

/// Why a single tile token could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TileError {
    /// Nothing to read.
    #[error("empty tile")]
    Empty,
    /// The colour part is not a known colour.
    #[error("unknown colour \"{0}\" in \"{1}\"")]
    UnknownColor(String, String),
    /// A colour with no number after it.
    #[error("\"{0}\" has no number")]
    MissingNumber(String),
    /// A number with no colour before it.
    #[error("\"{0}\" has no colour")]
    MissingColor(String),
    /// The part after the colour is not a number.
    #[error("\"{0}\" in \"{1}\" is not a number")]
    NotANumber(String, String),
    /// The number is not within 1–13.
    #[error("number {0} in \"{1}\" is outside 1–13")]
    NumberOutOfRange(String, String),
}

impl FromStr for Tile {
    type Err = TileError;

    fn from_str(s: &str) -> Result<Tile, TileError> {
        let s = normalize_width(s);
        let token = s.trim();
        if token.is_empty() {
            return Err(TileError::Empty);
        }
        let upper = token.to_uppercase();
        if matches!(upper.as_str(), "J" | "*" | "JOKER" | "조커") {
            return Ok(Tile::JOKER);
        }
        let digits_at = token
            .char_indices()
            .find(|(_, c)| c.is_ascii_digit())
            .map(|(i, _)| i);
        let (word, digits) = match digits_at {
            Some(i) => token.split_at(i),
            None => (token, ""),
        };
        let word = word.trim();
        if word.is_empty() {
            return Err(TileError::MissingColor(shorten(token)));
        }
        let color = Color::from_word(word)
            .ok_or_else(|| TileError::UnknownColor(shorten(word), shorten(token)))?;
        if digits.is_empty() {
            return Err(TileError::MissingNumber(shorten(token)));
        }
        if !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(TileError::NotANumber(shorten(digits), shorten(token)));
        }
        digits
            .parse::<u8>()
            .ok()
            .and_then(|n| Tile::numbered(color, n))
            .ok_or_else(|| TileError::NumberOutOfRange(shorten(digits), shorten(token)))
    }
}

impl Serialize for Tile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Tile {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Tile, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Which physical set is on the table: it fixes how many copies of each tile exist.
///
/// # Example
/// ```
/// use rummikub_companion::tile::TileSet;
/// assert_eq!(TileSet::Standard.total_tiles(), 106);
/// assert_eq!(TileSet::Xp.total_tiles(), 160);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TileSet {
    /// 2–4 players: two copies of each numbered tile and 2 jokers.
    #[default]
    Standard,
    /// 5–6 players: three copies of each numbered tile and 4 jokers.
    Xp,
}

impl TileSet {
    /// Copies of each numbered tile.
    pub const fn copies(self) -> u8 {
        match self {
            TileSet::Standard => 2,
            TileSet::Xp => 3,
        }
    }

    /// Jokers in the set.
    pub const fn jokers(self) -> u8 {
        match self {
            TileSet::Standard => 2,
            TileSet::Xp => 4,
        }
    }

    /// How many of this face the set holds.
    pub const fn copies_of(self, tile: Tile) -> u8 {
        if tile.is_joker() {
            self.jokers()
        } else {
            self.copies()
        }
    }

    /// Tiles in the whole set.
    pub const fn total_tiles(self) -> usize {
        52 * self.copies() as usize + self.jokers() as usize
    }

    /// Every tile of the set, each copy listed (red 1 first, jokers last).
    pub fn all_tiles(self) -> Vec<Tile> {
        Tile::all_faces()
            .flat_map(|t| std::iter::repeat_n(t, self.copies_of(t) as usize))
            .collect()
    }

    /// Every face that `tiles` holds more times than this set has, in face order (red 1 first,
    /// jokers last): the one place the tile supply is counted.
    ///
    /// # Example
    /// ```
    /// use rummikub_companion::tile::{parse_rack, TileSet};
    /// let rack = parse_rack("J J J R5").unwrap();
    /// let excess = TileSet::Standard.excess(&rack);
    /// assert_eq!(excess.len(), 1);
    /// assert_eq!(excess[0].to_string(), "three jokers but a standard set has two");
    /// assert!(TileSet::Xp.excess(&rack).is_empty());
    /// ```
    pub fn excess<'a>(self, tiles: impl IntoIterator<Item = &'a Tile>) -> Vec<TooManyCopies> {
        let mut counts = [0usize; FACES];
        for tile in tiles {
            counts[tile.index()] += 1;
        }
        Tile::all_faces()
            .filter(|&t| counts[t.index()] > usize::from(self.copies_of(t)))
            .map(|tile| TooManyCopies {
                tile,
                count: counts[tile.index()],
                tile_set: self,
            })
            .collect()
    }

    /// `Ok` when the set holds `tiles`, else the first face there are too many of.
    pub fn check_supply<'a>(
        self,
        tiles: impl IntoIterator<Item = &'a Tile>,
    ) -> Result<(), TooManyCopies> {
        match self.excess(tiles).first() {
            Some(excess) => Err(*excess),
            None => Ok(()),
        }
    }

    /// Name used in messages: "standard set" or "XP set".
    pub const fn name(self) -> &'static str {
        match self {
            TileSet::Standard => "standard set",
            TileSet::Xp => "XP set",
        }
    }
}

/// "two", "three", … for counts in messages.
pub fn count_word(n: usize) -> String {
    const WORDS: [&str; 13] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
        "eleven", "twelve",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}

/// More copies of a face than the tile set holds: the one "too many copies" error, used by the
/// meld checker, the score sheet and (through them) the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TooManyCopies {
    /// The face.
    pub tile: Tile,
    /// How many were entered.
    pub count: usize,
    /// The tile set in use.
    pub tile_set: TileSet,
}

impl fmt::Display for TooManyCopies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let article = if self.tile_set == TileSet::Xp {
            "an"
        } else {
            "a"
        };
        let have = count_word(usize::from(self.tile_set.copies_of(self.tile)));
        let what = if self.tile.is_joker() {
            "jokers".to_owned()
        } else {
            self.tile.to_string()
        };
        write!(
            f,
            "{} {what} but {article} {} has {have}",
            count_word(self.count),
            self.tile_set.name()
        )
    }
}

impl std::error::Error for TooManyCopies {}

/// The kind of a set on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Same number, different colours, 3 or 4 tiles.
    Group,
    /// Same colour, consecutive numbers, 3 to 13 tiles.
    Run,
}

impl Kind {
    /// `"run"` or `"group"`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Group => "group",
        }
    }

    /// Reads a declaration word (`run`, `group`, `런`, `연속`, `그룹`), case-insensitive.
    pub fn from_word(word: &str) -> Option<Kind> {
        match word.trim().to_lowercase().as_str() {
            "run" | "런" | "연속" => Some(Kind::Run),
            "group" | "그룹" => Some(Kind::Group),
            _ => None,
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One set as entered: its tiles in table order and an optional `run:` / `group:` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetInput {
    /// A declared kind, if the player said which one they meant.
    pub declared: Option<Kind>,
    /// Tiles in the order they lie on the table.
    pub tiles: Vec<Tile>,
}

impl fmt::Display for SetInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(kind) = self.declared {
            write!(f, "{kind}: ")?;
        }
        f.write_str(&join_tiles(&self.tiles))
    }
}

/// Tiles in canonical notation, separated by single spaces.
pub fn join_tiles(tiles: &[Tile]) -> String {
    tiles
        .iter()
        .map(Tile::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Where in the input a problem was found (all 1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    /// Which set (after splitting on `|`, `;` and new lines).
    pub set: usize,
    /// Which tile within the set, when the problem is a tile.
    pub tile: Option<usize>,
    /// Character column in the whole input.
    pub column: usize,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.tile {
            Some(t) => write!(f, "set {}, tile {}, column {}", self.set, t, self.column),
            None => write!(f, "set {}, column {}", self.set, self.column),
        }
    }
}

/// Why a meld or rack text could not be read. Every variant names the offending text and where
/// it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Nothing but spaces and separators.
    #[error("no tiles entered")]
    EmptyInput,
    /// A tile token that is not a tile.
    #[error("{error} ({at})")]
    BadTile {
        /// What is wrong with the token.
        error: TileError,
        /// Where it is.
        at: Position,
    },
    /// A `|` or `;` with no tiles on one side.
    #[error("empty set: nothing between separators ({at})")]
    EmptySet {
        /// Where the empty set is.
        at: Position,
    },
    /// A comma with no tile before it.
    #[error("stray \",\" ({at})")]
    StraySeparator {
        /// Where the comma is.
        at: Position,
    },
    /// A declaration word that is not `run` or `group`.
    #[error("unknown declaration \"{word}:\" (use run: or group:) ({at})")]
    UnknownDeclaration {
        /// The word before the colon.
        word: String,
        /// Where it is.
        at: Position,
    },
    /// A rack was expected but the text holds `|` / `;` / a declaration.
    #[error("a rack is one list of tiles: unexpected \"{found}\" ({at})")]
    NotARack {
        /// The separator or declaration found.
        found: String,
        /// Where it is.
        at: Position,
    },
}

/// Reads sets as laid on the table: tiles separated by spaces or commas, sets separated by `|`,
/// `;` or new lines, each set optionally starting with `run:` / `group:` (`런:`, `연속:`,
/// `그룹:`). Blank lines are ignored; an empty set between `|` / `;` is an error. A colour word
/// followed by a separate number (`빨강 7`) is read as one tile.
///
/// # Example
/// ```
/// use rummikub_companion::tile::{parse_sets, Kind};
/// let sets = parse_sets("R11 J R13 | group: k9, b9, 주9").unwrap();
/// assert_eq!(sets.len(), 2);
/// assert_eq!(sets[1].declared, Some(Kind::Group));
/// assert_eq!(sets[1].to_string(), "group: K9 B9 O9");
/// assert!(parse_sets("R1 R14").unwrap_err().to_string().contains("R14"));
/// ```
pub fn parse_sets(input: &str) -> Result<Vec<SetInput>, NotationError> {
    let input = normalize_width(input);
    /// A piece of the input between separators: either a set's characters or a `|` / `;`.
    enum Piece {
        Set(Vec<(usize, char)>),
        Separator(usize),
    }
    let mut pieces = Vec::new();
    let mut current: Vec<(usize, char)> = Vec::new();
    let flush = |current: &mut Vec<(usize, char)>, pieces: &mut Vec<Piece>| {
        if !current.iter().all(|(_, c)| c.is_whitespace()) {
            pieces.push(Piece::Set(std::mem::take(current)));
        }
        current.clear();
    };
    for (col, c) in input.chars().enumerate() {
        match c {
            '|' | ';' => {
                flush(&mut current, &mut pieces);
                pieces.push(Piece::Separator(col));
            }
            '\n' => flush(&mut current, &mut pieces),
            _ => current.push((col, c)),
        }
    }
    flush(&mut current, &mut pieces);

    let mut sets = Vec::new();
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Set(chars) => sets.push(parse_one_set(chars, sets.len() + 1)?),
            Piece::Separator(col) => {
                let set_before = i > 0 && matches!(pieces[i - 1], Piece::Set(_));
                let set_after = matches!(pieces.get(i + 1), Some(Piece::Set(_)));
                if !(set_before && set_after) {
                    return Err(NotationError::EmptySet {
                        at: Position {
                            set: sets.len() + 1,
                            tile: None,
                            column: col + 1,
                        },
                    });
                }
            }
        }
    }
    if sets.is_empty() {
        return Err(NotationError::EmptyInput);
    }
    Ok(sets)
}

/// Reads an unordered rack: tiles separated by spaces or commas, no set separators.
///
/// # Example
/// ```
/// use rummikub_companion::tile::parse_rack;
/// assert_eq!(parse_rack("K9 b9 주9 조커").unwrap().len(), 4);
/// assert!(parse_rack("K9 | B9").is_err());
/// ```
pub fn parse_rack(input: &str) -> Result<Vec<Tile>, NotationError> {
    let input = normalize_width(input);
    let chars: Vec<(usize, char)> = input.chars().enumerate().collect();
    if let Some(&(col, c)) = chars.iter().find(|(_, c)| matches!(c, '|' | ';')) {
        return Err(NotationError::NotARack {
            found: c.to_string(),
            at: Position {
                set: 1,
                tile: None,
                column: col + 1,
            },
        });
    }
    let chars: Vec<(usize, char)> = chars
        .into_iter()
        .map(|(i, c)| (i, if c == '\n' { ' ' } else { c }))
        .collect();
    if chars.iter().all(|(_, c)| c.is_whitespace()) {
        return Err(NotationError::EmptyInput);
    }
    let set = parse_one_set(&chars, 1)?;
    if set.declared.is_some() {
        let col = chars
            .iter()
            .find(|(_, c)| *c == ':')
            .map_or(1, |(i, _)| i + 1);
        return Err(NotationError::NotARack {
            found: format!("{}:", set.declared.map_or("", |k| k.name())),
            at: Position {
                set: 1,
                tile: None,
                column: col,
            },
        });
    }
    Ok(set.tiles)
}

/// One token of a set: its text and 0-based start column.
struct Token {
    text: String,
    column: usize,
}

fn parse_one_set(chars: &[(usize, char)], set_no: usize) -> Result<SetInput, NotationError> {
    let position = |column: usize, tile: Option<usize>| Position {
        set: set_no,
        tile,
        column: column + 1,
    };
    // Declaration: `word:` before any tile.
    let mut body = chars;
    let mut declared = None;
    if let Some(colon) = chars.iter().position(|(_, c)| *c == ':') {
        let word: String = chars[..colon].iter().map(|(_, c)| c).collect();
        let word_col = chars[..colon]
            .iter()
            .find(|(_, c)| !c.is_whitespace())
            .map_or(chars[colon].0, |(i, _)| *i);
        match Kind::from_word(&word) {
            Some(kind) => declared = Some(kind),
            None => {
                return Err(NotationError::UnknownDeclaration {
                    word: shorten(word.trim()),
                    at: position(word_col, None),
                });
            }
        }
        body = &chars[colon + 1..];
    }

    // Split on whitespace and commas; a comma with no token before it is stray.
    let mut tokens: Vec<Token> = Vec::new();
    let mut current = String::new();
    let mut current_col = 0;
    let mut token_since_comma = false;
    for &(col, c) in body.iter().chain(std::iter::once(&(usize::MAX, ' '))) {
        if c.is_whitespace() || c == ',' {
            if !current.is_empty() {
                tokens.push(Token {
                    text: std::mem::take(&mut current),
                    column: current_col,
                });
                token_since_comma = true;
            }
            if c == ',' {
                if !token_since_comma {
                    return Err(NotationError::StraySeparator {
                        at: position(col, Some(tokens.len() + 1)),
                    });
                }
                token_since_comma = false;
            }
        } else {
            if current.is_empty() {
                current_col = col;
            }
            current.push(c);
        }
    }
    if tokens.is_empty() {
        let col = body.first().map_or(0, |(i, _)| *i);
        return Err(NotationError::EmptySet {
            at: position(col, None),
        });
    }

    let mut tiles = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let token = &tokens[i];
        // `빨강 7`: a bare colour word followed by a bare number is one tile.
        let joined = match tokens.get(i + 1) {
            Some(next)
                if Color::from_word(&token.text).is_some()
                    && next.text.chars().all(|c| c.is_ascii_digit()) =>
            {
                Some(format!("{}{}", token.text, next.text))
            }
            _ => None,
        };
        let text = joined.as_deref().unwrap_or(&token.text);
        match text.parse::<Tile>() {
            Ok(tile) => tiles.push(tile),
            Err(error) => {
                return Err(NotationError::BadTile {
                    error,
                    at: position(token.column, Some(tiles.len() + 1)),
                });
            }
        }
        i += if joined.is_some() { 2 } else { 1 };
    }
    Ok(SetInput { declared, tiles })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_face_round_trips() {
        for tile in Tile::all_faces() {
            let text = tile.to_string();
            assert_eq!(text.parse::<Tile>(), Ok(tile), "{text}");
            assert_eq!(Tile::from_index(tile.index()), Some(tile));
        }
        assert_eq!(Tile::all_faces().count(), FACES);
    }

    #[test]
    fn set_sizes() {
        assert_eq!(TileSet::Standard.all_tiles().len(), 106);
        assert_eq!(TileSet::Xp.all_tiles().len(), 160);
    }
}
