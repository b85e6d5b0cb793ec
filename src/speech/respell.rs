//! Korean written as it is pronounced, for espeak-ng.
//!
//! espeak-ng reads Korean letter by letter: it says `입니다` as "ip-nida" (an upstream bug open
//! since 2017) where every Korean says "im-nida". Standard Korean pronunciation changes the
//! sounds where two syllables meet (nasalisation, ㄹ after a nasal, lateralisation,
//! aspiration with ㅎ, tensing after a stop, palatalisation); written as pronounced (`임니다`,
//! `종뇨` for `종료`) espeak-ng comes out right. This pass rewrites a phrase so: pure, one
//! syllable boundary at a time, only inside a word (a space stops it), and only on Hangul
//! syllables (names in Latin letters and punctuation pass unchanged). Digits become
//! Sino-Korean numbers (`10초` → `십초`), as they are read before 초.
//!
//! A browser's or a system's Korean voice reads the written form correctly: the phone page
//! never gets this pass.
//!
//! # Example
//! ```
//! use rummikub_companion::speech::respell::respell_korean;
//! assert_eq!(respell_korean("루미 차례입니다"), "루미 차례임니다");
//! assert_eq!(respell_korean("게임 종료"), "게임 종뇨");
//! assert_eq!(respell_korean("10초"), "십초");
//! ```

use crate::lang::Language;

/// First Hangul syllable (가).
const BASE: u32 = 0xAC00;
/// Last Hangul syllable (힣).
const LAST: u32 = 0xD7A3;

// Initial consonants (choseong), by index.
const G: u8 = 0; // ㄱ
const GG: u8 = 1; // ㄲ
const N: u8 = 2; // ㄴ
const D: u8 = 3; // ㄷ
const DD: u8 = 4; // ㄸ
const R: u8 = 5; // ㄹ
const M: u8 = 6; // ㅁ
const B: u8 = 7; // ㅂ
const BB: u8 = 8; // ㅃ
const S: u8 = 9; // ㅅ
const SS: u8 = 10; // ㅆ
const O: u8 = 11; // ㅇ (silent)
const J: u8 = 12; // ㅈ
const JJ: u8 = 13; // ㅉ
const CH: u8 = 14; // ㅊ
const K: u8 = 15; // ㅋ
const T: u8 = 16; // ㅌ
const P: u8 = 17; // ㅍ
const H: u8 = 18; // ㅎ

// Final consonants (jongseong), by index (0 = none).
const F_NONE: u8 = 0;
const F_G: u8 = 1; // ㄱ
const F_GG: u8 = 2; // ㄲ
const F_GS: u8 = 3; // ㄳ
const F_N: u8 = 4; // ㄴ
const F_NJ: u8 = 5; // ㄵ
const F_NH: u8 = 6; // ㄶ
const F_D: u8 = 7; // ㄷ
const F_L: u8 = 8; // ㄹ
const F_LG: u8 = 9; // ㄺ
const F_LB: u8 = 11; // ㄼ (10 ㄻ and 12 ㄽ change nothing here)
const F_LT: u8 = 13; // ㄾ
const F_LP: u8 = 14; // ㄿ
const F_LH: u8 = 15; // ㅀ
const F_M: u8 = 16; // ㅁ
const F_B: u8 = 17; // ㅂ
const F_BS: u8 = 18; // ㅄ
const F_S: u8 = 19; // ㅅ
const F_SS: u8 = 20; // ㅆ
const F_NG: u8 = 21; // ㅇ
const F_J: u8 = 22; // ㅈ
const F_CH: u8 = 23; // ㅊ
const F_K: u8 = 24; // ㅋ
const F_T: u8 = 25; // ㅌ
const F_P: u8 = 26; // ㅍ
const F_H: u8 = 27; // ㅎ

/// The vowel ㅣ (jungseong index).
const V_I: u8 = 20;

/// A Hangul syllable taken apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Syllable {
    initial: u8,
    vowel: u8,
    last: u8,
}

impl Syllable {
    fn of(c: char) -> Option<Syllable> {
        let code = u32::from(c);
        if !(BASE..=LAST).contains(&code) {
            return None;
        }
        let i = code - BASE;
        Some(Syllable {
            initial: u8::try_from(i / (21 * 28)).ok()?,
            vowel: u8::try_from(i / 28 % 21).ok()?,
            last: u8::try_from(i % 28).ok()?,
        })
    }

    fn char(self) -> char {
        let code = BASE
            + (u32::from(self.initial) * 21 + u32::from(self.vowel)) * 28
            + u32::from(self.last);
        char::from_u32(code).unwrap_or('?')
    }
}

/// The sound a final stop is heard as before another consonant: k, t or p.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    K,
    T,
    P,
}

/// Which stop a final is (after a complex final is simplified), if it is one.
fn stop(last: u8) -> Option<Stop> {
    match last {
        F_G | F_GG | F_K | F_GS | F_LG => Some(Stop::K),
        F_D | F_S | F_SS | F_J | F_CH | F_T | F_H => Some(Stop::T),
        F_B | F_P | F_BS | F_LP => Some(Stop::P),
        _ => None,
    }
}

/// The nasal a stop becomes before ㄴ or ㅁ (as a final).
fn nasal(stop: Stop) -> u8 {
    match stop {
        Stop::K => F_NG,
        Stop::T => F_N,
        Stop::P => F_M,
    }
}

/// Rewrites one boundary: `a` ends a syllable, `b` is the next one in the same word.
fn boundary(a: &mut Syllable, b: &mut Syllable) {
    // ㅎ with ㄱ ㄷ ㅈ after it: one aspirated sound (좋다 → 조타, 많다 → 만타, 싫다 → 실타).
    let h_part = match a.last {
        F_H => Some(F_NONE),
        F_NH => Some(F_N),
        F_LH => Some(F_L),
        _ => None,
    };
    if let Some(rest) = h_part {
        match b.initial {
            G | D | J => {
                a.last = rest;
                b.initial = match b.initial {
                    G => K,
                    D => T,
                    _ => CH,
                };
                return;
            }
            // ㅎ is silent before a vowel (좋아 → 조아) …
            O => {
                a.last = rest;
                return;
            }
            // … and makes ㅅ tense (좋소 → 조쏘).
            S => {
                a.last = rest;
                b.initial = SS;
                return;
            }
            // 놓는 → 논는; 않는, 싫네 keep their ㄴ, ㄹ.
            N => {
                a.last = if rest == F_NONE { F_N } else { rest };
                if rest == F_L {
                    b.initial = R;
                }
                return;
            }
            _ => {}
        }
    }
    // A stop and ㅎ after it: one aspirated sound (축하 → 추카, 입학 → 이팍, 맞히다 → 마치다).
    if b.initial == H {
        let merged = match a.last {
            F_G | F_GG | F_K => Some((F_NONE, K)),
            F_LG => Some((F_L, K)),
            F_D | F_S | F_SS | F_T => Some((F_NONE, T)),
            F_J | F_CH => Some((F_NONE, CH)),
            F_NJ => Some((F_N, CH)),
            F_B | F_P => Some((F_NONE, P)),
            F_LB => Some((F_L, P)),
            _ => None,
        };
        if let Some((rest, aspirated)) = merged {
            a.last = rest;
            b.initial = aspirated;
            return;
        }
    }
    // ㄷ, ㅌ before 이: ㅈ, ㅊ (굳이 → 구지, 같이 → 가치).
    if b.initial == O && b.vowel == V_I && matches!(a.last, F_D | F_T | F_LT) {
        b.initial = if a.last == F_D { J } else { CH };
        a.last = if a.last == F_LT { F_L } else { F_NONE };
        return;
    }
    // ㄹ after ㅁ, ㅇ or a stop is said ㄴ (종료 → 종뇨, 심리 → 심니, 국립 → 궁닙).
    if b.initial == R && (matches!(a.last, F_M | F_NG) || stop(a.last).is_some()) {
        b.initial = N;
    }
    // ㄴ and ㄹ side by side: both ㄹ (신라 → 실라, 설날 → 설랄).
    if b.initial == R && a.last == F_N {
        a.last = F_L;
        return;
    }
    if b.initial == N && matches!(a.last, F_L | F_LT) {
        b.initial = R;
        return;
    }
    // A stop before ㄴ or ㅁ turns nasal (입니다 → 임니다, 국물 → 궁물, 없는 → 엄는).
    if matches!(b.initial, N | M)
        && let Some(s) = stop(a.last)
    {
        a.last = nasal(s);
        return;
    }
    // After a stop, ㄱ ㄷ ㅂ ㅅ ㅈ are tense (학교 → 학꾜, 했습니다 → 했씀니다).
    if stop(a.last).is_some() {
        b.initial = match b.initial {
            G => GG,
            D => DD,
            B => BB,
            S => SS,
            J => JJ,
            other => other,
        };
    }
}

/// Korean written as pronounced, for espeak-ng: see the [module docs](self).
pub fn respell_korean(text: &str) -> String {
    let spelled = digits_in_korean(text);
    let mut chars: Vec<char> = spelled.chars().collect();
    for i in 1..chars.len() {
        let (Some(mut a), Some(mut b)) = (Syllable::of(chars[i - 1]), Syllable::of(chars[i]))
        else {
            continue;
        };
        boundary(&mut a, &mut b);
        chars[i - 1] = a.char();
        chars[i] = b.char();
    }
    chars.into_iter().collect()
}

/// A phrase as the laptop's engine is given it: Korean respelled ([`respell_korean`]), and in
/// both languages the dash of "time's up — draw one" as a comma (a pause, never a word).
///
/// # Example
/// ```
/// use rummikub_companion::lang::Language;
/// use rummikub_companion::speech::respell::for_engine;
/// assert_eq!(for_engine(Language::Korean, "시간 초과 — 한 장 가져가세요"), "시간 초과, 한 장 가져가세요");
/// assert_eq!(for_engine(Language::English, "time's up — draw one"), "time's up, draw one");
/// ```
pub fn for_engine(lang: Language, text: &str) -> String {
    let text = text.replace(" — ", ", ").replace('—', ", ");
    match lang {
        Language::English => text,
        Language::Korean => respell_korean(&text),
    }
}

/// Every run of ASCII digits as a Sino-Korean number (`10` → `십`, `25` → `이십오`).
fn digits_in_korean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut number = String::new();
    for c in text.chars().chain(std::iter::once('\0')) {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        if !number.is_empty() {
            match number.parse::<u64>() {
                Ok(n) => out.push_str(&sino_korean(n)),
                Err(_) => out.push_str(&number),
            }
            number.clear();
        }
        if c != '\0' {
            out.push(c);
        }
    }
    out
}

/// A whole number in Sino-Korean words (up to the 억s; larger ones stay digits).
///
/// # Example
/// ```
/// use rummikub_companion::speech::respell::sino_korean;
/// assert_eq!(sino_korean(0), "영");
/// assert_eq!(sino_korean(10), "십");
/// assert_eq!(sino_korean(105), "백오");
/// assert_eq!(sino_korean(2_030), "이천삼십");
/// ```
pub fn sino_korean(n: u64) -> String {
    const DIGITS: [&str; 10] = ["", "일", "이", "삼", "사", "오", "육", "칠", "팔", "구"];
    const UNITS: [&str; 4] = ["", "십", "백", "천"];
    if n == 0 {
        return "영".to_owned();
    }
    if n >= 100_000_000 {
        return n.to_string();
    }
    let mut out = String::new();
    let groups = [(n / 10_000, "만"), (n % 10_000, "")];
    for (group, name) in groups {
        if group == 0 {
            continue;
        }
        let mut part = String::new();
        for (place, unit) in UNITS.iter().enumerate().rev() {
            let digit = (group / 10_u64.pow(place as u32) % 10) as usize;
            if digit == 0 {
                continue;
            }
            // 십, 백, 천 without 일 before them (일 alone, in the ones, is said).
            if !(digit == 1 && place > 0) {
                part.push_str(DIGITS[digit]);
            }
            part.push_str(unit);
        }
        // 만 without 일 before it.
        if part != "일" || name.is_empty() {
            out.push_str(&part);
        }
        out.push_str(name);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syllables_round_trip() {
        for c in ['가', '힣', '입', '니', '종', '료', '닭', '않'] {
            let s = Syllable::of(c).map(Syllable::char);
            assert_eq!(s, Some(c));
        }
        assert_eq!(Syllable::of('A'), None);
        assert_eq!(Syllable::of('ㄱ'), None);
    }
}
