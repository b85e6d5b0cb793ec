//! An event as a bundle a season imports: the players, rounds, results (with every
//! correction), the format — the whole [`Event`] — with the venue that played it, signed with
//! the venue's ed25519 key.
//!
//! The file is JSON: `{"kind", "version", "payload": {"venue", "key", "event_id", "exported",
//! "event"}, "signature"}`. The signature covers the payload as compact JSON with its keys in
//! the order serde_json's `Value` keeps them (sorted), so reformatting the file keeps it valid
//! and changing any fact of the payload does not. The payload names the public key it was
//! signed with; whether that key is the venue's is the season's to judge (the key first seen
//! for a venue name, see [`super::season`]).
//!
//! Pure: the secret key is given (the store makes and keeps it), the export time too.

use chrono::{DateTime, Utc};
use ed25519_dalek::{Signature, Signer, SigningKey, VerifyingKey};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Event;

/// What a bundle says it is.
pub const BUNDLE_KIND: &str = "rummikub-companion event bundle";
/// The bundle format this version writes and reads.
pub const BUNDLE_VERSION: u64 = 1;

/// A venue: its name and its signing key.
#[derive(Clone, Debug)]
pub struct Venue {
    name: String,
    key: SigningKey,
}

impl Venue {
    /// The venue named `name` with the secret key `secret`.
    pub fn new(name: &str, secret: [u8; 32]) -> Venue {
        Venue {
            name: name.trim().to_owned(),
            key: SigningKey::from_bytes(&secret),
        }
    }

    /// The venue's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The public key, as hex (64 digits).
    pub fn public_key(&self) -> String {
        to_hex(self.key.verifying_key().as_bytes())
    }

    /// The secret key's bytes (for the store to keep).
    pub fn secret(&self) -> [u8; 32] {
        self.key.to_bytes()
    }
}

/// What a bundle carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payload {
    /// The venue's name.
    pub venue: String,
    /// The venue's public key (hex) the bundle is signed with.
    pub key: String,
    /// The event's id at the venue.
    pub event_id: String,
    /// When it was exported.
    pub exported: DateTime<Utc>,
    /// The event.
    pub event: Event,
}

/// A bundle read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opened {
    /// What it carries.
    pub payload: Payload,
    /// Its signature (hex): one export, told apart from another of the same event.
    pub signature: String,
}

/// Why a bundle is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BundleProblem {
    /// The text is not JSON.
    NotJson(String),
    /// The JSON is not an event bundle.
    NotABundle,
    /// Written by a newer version of the app.
    Newer(u64),
    /// The signature does not match the payload: changed after it was signed, or damaged.
    Tampered,
    /// Signed, but its content does not read as an event.
    Invalid(String),
}

/// Hex of bytes, lower case.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes of hex text (`None` when it is not hex of whole bytes).
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

/// The bytes a signature covers.
fn signed_bytes(payload: &Value) -> Vec<u8> {
    serde_json::to_vec(payload).unwrap_or_default()
}

/// The bundle of `event` (id `event_id` at the venue), exported at `exported`, signed by
/// `venue`: the file's text.
pub fn seal(
    venue: &Venue,
    event_id: &str,
    exported: DateTime<Utc>,
    event: &Event,
) -> Result<String, serde_json::Error> {
    let payload = serde_json::to_value(Payload {
        venue: venue.name.clone(),
        key: venue.public_key(),
        event_id: event_id.to_owned(),
        exported,
        event: event.clone(),
    })?;
    let signature = venue.key.sign(&signed_bytes(&payload));
    let bundle = json!({
        "kind": BUNDLE_KIND,
        "version": BUNDLE_VERSION,
        "payload": payload,
        "signature": to_hex(&signature.to_bytes()),
    });
    let mut text = serde_json::to_string_pretty(&bundle)?;
    text.push('\n');
    Ok(text)
}

/// Reads a bundle and checks its signature against the key it names; the event is checked
/// to be whole (every seat names a player, every result a hand per seat).
pub fn open(text: &str) -> Result<Opened, BundleProblem> {
    let mut value: Value = serde_json::from_str(text.trim_start_matches('\u{feff}'))
        .map_err(|e| BundleProblem::NotJson(e.to_string()))?;
    if value.get("kind").and_then(Value::as_str) != Some(BUNDLE_KIND) {
        return Err(BundleProblem::NotABundle);
    }
    match value.get("version").and_then(Value::as_u64) {
        Some(v) if v > BUNDLE_VERSION => return Err(BundleProblem::Newer(v)),
        Some(v) if v >= 1 => {}
        _ => return Err(BundleProblem::NotABundle),
    }
    let payload = value
        .get_mut("payload")
        .map(Value::take)
        .ok_or(BundleProblem::NotABundle)?;
    let signature = value
        .get("signature")
        .and_then(Value::as_str)
        .ok_or(BundleProblem::NotABundle)?
        .to_owned();
    let key = payload
        .get("key")
        .and_then(Value::as_str)
        .and_then(from_hex)
        .and_then(|k| <[u8; 32]>::try_from(k).ok())
        .and_then(|k| VerifyingKey::from_bytes(&k).ok())
        .ok_or(BundleProblem::Tampered)?;
    let sig = from_hex(&signature)
        .and_then(|s| <[u8; 64]>::try_from(s).ok())
        .map(|s| Signature::from_bytes(&s))
        .ok_or(BundleProblem::Tampered)?;
    key.verify_strict(&signed_bytes(&payload), &sig)
        .map_err(|_| BundleProblem::Tampered)?;
    let payload: Payload =
        serde_json::from_value(payload).map_err(|e| BundleProblem::Invalid(e.to_string()))?;
    payload
        .event
        .check_whole()
        .map_err(BundleProblem::Invalid)?;
    Ok(Opened {
        payload,
        signature: signature.trim().to_lowercase(),
    })
}
