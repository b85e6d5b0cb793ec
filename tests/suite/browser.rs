//! A real browser on the phone page: Debian's headless Chromium driven over WebDriver
//! (chromedriver, plain HTTP JSON) at a phone viewport of 390×844. `.ci/run` installs
//! `chromium chromium-driver` and runs the ignored tests; when Chromium is installed but cannot
//! be driven, the test fails.

use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use rummikub_companion::evening::Command as Ask;

use crate::util::phones::{Table, request, request_within};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// Waits this long for anything the browser should do.
const PATIENCE: Duration = Duration::from_secs(20);

/// A chromedriver process and one session; both end on drop.
struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// A phone: 390×844 at three device pixels per CSS pixel, touch.
    fn launch() -> Browser {
        Self::launch_as(None)
    }

    /// A screen of `width`×`height` CSS pixels, one device pixel each (a TV).
    fn launch_screen(width: u32, height: u32) -> Browser {
        let browser = Self::launch_as(Some((width, height)));
        // A headless window's size includes the browser's own bars: the page's size is set.
        browser.call(
            "POST",
            "/goog/cdp/execute",
            json!({ "cmd": "Emulation.setDeviceMetricsOverride", "params": {
                "width": width, "height": height, "deviceScaleFactor": 1, "mobile": false
            }}),
        );
        browser
    }

    fn launch_as(screen: Option<(u32, u32)>) -> Browser {
        for binary in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                std::path::Path::new(binary).exists(),
                "{binary} is missing: apt-get install -y chromium chromium-driver (.ci/run does)"
            );
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .stdin(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
            _profile: tempfile::tempdir().expect("profile dir"),
        };
        let started = Instant::now();
        loop {
            let status = request_within(addr, "GET", "/status", b"", Duration::from_secs(1));
            if status
                .as_ref()
                .is_ok_and(|r| r.status == 200 && r.json()["value"]["ready"] == true)
            {
                break;
            }
            assert!(
                started.elapsed() < PATIENCE,
                "chromedriver did not become ready: {status:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let profile = browser._profile.path().display().to_string();
        let (width, height) = screen.unwrap_or((390, 844));
        let mut options = json!({
            "binary": CHROMIUM,
            "args": [
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                format!("--user-data-dir={profile}"), format!("--window-size={width},{height}"),
                "--lang=en-US",
            ],
        });
        if screen.is_none() {
            options["mobileEmulation"] = json!({
                "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 3.0, "touch": true }
            });
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": options,
        }}});
        let answer = browser.call("POST", "/session", caps);
        browser.session = answer["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {answer}"))
            .to_string();
        browser
    }

    /// A WebDriver command; panics on a WebDriver error (the test must fail, not skip).
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let path = if path.starts_with("/session/") || path == "/session" {
            path.to_string()
        } else {
            format!("/session/{}{path}", self.session)
        };
        let body = if method == "GET" {
            String::new()
        } else {
            body.to_string()
        };
        let r = request(self.addr, method, &path, body.as_bytes())
            .unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let value = r.json()["value"].clone();
        assert_eq!(r.status, 200, "{method} {path}: {value}");
        value
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", json!({ "url": url }));
    }

    fn eval(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            json!({ "script": script, "args": [] }),
        )
    }

    fn text(&self, id: &str) -> String {
        let v = self.eval(&format!(
            "const e = document.getElementById('{id}'); return e ? e.textContent : null;"
        ));
        v.as_str().unwrap_or_default().to_string()
    }

    /// Waits until `script` returns true.
    fn wait_for(&self, what: &str, script: &str) {
        let started = Instant::now();
        while self.eval(script) != Value::Bool(true) {
            assert!(started.elapsed() < PATIENCE, "timed out waiting for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The WebDriver id of the element matching `css`.
    fn element(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            json!({ "using": "css selector", "value": css }),
        );
        found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string()
    }

    /// A real tap on the element matching `css` (WebDriver element click).
    /// Clicks the element matching `css`. The page redraws its buttons when the laptop pushes
    /// a state, so an element found a moment ago can be gone by the click ("stale element
    /// reference"): then it is found again, until [`PATIENCE`]; any other error fails the test.
    fn tap(&self, css: &str) {
        let started = Instant::now();
        loop {
            let id = self.element(css);
            let path = format!("/session/{}/element/{id}/click", self.session);
            let r = request(self.addr, "POST", &path, b"{}")
                .unwrap_or_else(|e| panic!("click {css}: {e}"));
            if r.status == 200 {
                return;
            }
            let value = r.json()["value"].clone();
            let stale = value["error"] == "stale element reference";
            assert!(
                stale && started.elapsed() < PATIENCE,
                "click {css}: {} {value}",
                r.status
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Types `text` into the element matching `css`, as a keyboard would.
    fn type_into(&self, css: &str, text: &str) {
        let id = self.element(css);
        self.call(
            "POST",
            &format!("/element/{id}/value"),
            json!({ "text": text }),
        );
    }

    /// Opens a new tab and switches to it; returns its handle.
    fn new_tab(&self) -> String {
        let tab = self.call("POST", "/window/new", json!({ "type": "tab" }));
        let handle = tab["handle"].as_str().expect("new tab handle").to_string();
        self.switch_to(&handle);
        handle
    }

    fn switch_to(&self, handle: &str) {
        self.call("POST", "/window", json!({ "handle": handle }));
    }

    fn handle(&self) -> String {
        self.call("GET", "/window", json!({}))
            .as_str()
            .expect("handle")
            .to_string()
    }

    /// A screenshot of the page (what a phone shows), saved as `<name>.png` in the tests'
    /// temporary folder; returns the file.
    fn screenshot(&self, name: &str) -> std::path::PathBuf {
        let encoded = self.call("GET", "/screenshot", json!({}));
        let png = base64_decode(encoded.as_str().expect("base64 PNG"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}.png"));
        std::fs::write(&path, png).expect("screenshot written");
        eprintln!("screenshot: {}", path.display());
        path
    }
}

/// Standard base64 (WebDriver's screenshots), padding and all.
fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut bits, mut count) = (0u32, 0);
    for byte in text
        .bytes()
        .filter(|b| *b != b'=' && !b.is_ascii_whitespace())
    {
        let value = ALPHABET
            .iter()
            .position(|a| *a == byte)
            .unwrap_or_else(|| panic!("not base64: {byte}"));
        bits = (bits << 6) | value as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(
                self.addr,
                "DELETE",
                &format!("/session/{}", self.session),
                b"",
            );
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

#[test]
#[ignore = "needs Debian chromium + chromium-driver; .ci/run installs them and runs ignored tests"]
fn a_phone_joins_feels_the_warning_ends_its_turn_and_another_phone_sees_it() {
    let table = Table::start(0);
    let url = format!("http://{}{}", table.addr, table.path(""));
    let browser = Browser::launch();

    // Page A: Ann's phone picks her seat.
    browser.go(&format!("{url}?lang=en"));
    browser.wait_for(
        "the seat buttons",
        "return document.querySelectorAll('#seats button').length === 4",
    );
    assert_eq!(browser.text("pick-title"), "Which seat is yours?");
    assert_eq!(
        browser.eval("return innerWidth"),
        json!(390),
        "a phone-sized viewport"
    );
    browser.tap("#seats button[data-seat='0']");
    browser.wait_for(
        "the play view",
        "return !document.getElementById('play').hidden",
    );
    assert_eq!(browser.text("whose"), "Your turn");
    assert_eq!(browser.text("end"), "End my turn");
    assert_eq!(
        browser.eval("return document.getElementById('end').disabled"),
        json!(false)
    );
    let height =
        browser.eval("return document.getElementById('end').getBoundingClientRect().height");
    assert!(
        height.as_f64().is_some_and(|h| h >= 44.0),
        "a big touch target: {height}"
    );
    let page_a = browser.handle();

    // Ann feels the warning and the time-up: the page counts down by itself from the pushed
    // state and vibrates once at each crossing (navigator.vibrate recorded here).
    browser.eval(
        "window.buzz = []; navigator.vibrate = (p) => { window.buzz.push(p); return true; };",
    );
    table.set_clock(Duration::from_millis(49_600)); // 10.4 s left, warning at 10 s
    browser.wait_for(
        "the warning",
        "return document.body.classList.contains('warn') && window.buzz.length === 1",
    );
    assert_eq!(browser.text("cue"), "Hurry up!");
    table.set_clock(Duration::from_millis(59_600)); // 0.4 s left
    browser.wait_for(
        "the time-up",
        "return document.body.classList.contains('up') && window.buzz.length === 2",
    );
    assert!(
        browser.text("cue").starts_with("Time's up!"),
        "{}",
        browser.text("cue")
    );
    assert!(
        browser.text("clock").starts_with("+0:0"),
        "overtime shown: {}",
        browser.text("clock")
    );
    assert_eq!(
        browser.eval("return window.buzz"),
        json!([[200], [400, 150, 400, 150, 400]])
    );

    // Page B: Cy's phone, in a second tab.
    let tab = browser.call("POST", "/window/new", json!({ "type": "tab" }));
    let page_b = tab["handle"].as_str().expect("new tab handle").to_string();
    browser.call("POST", "/window", json!({ "handle": page_b }));
    browser.go(&format!("{url}?lang=en#seat=2"));
    browser.wait_for(
        "page B's play view",
        "return !document.getElementById('play').hidden",
    );
    assert_eq!(browser.text("whose"), "Ann's turn");
    assert_eq!(
        browser.eval("return document.getElementById('end').disabled"),
        json!(true),
        "not Cy's turn"
    );

    // Ann taps "End my turn" on page A: the app's timer advances.
    browser.call("POST", "/window", json!({ "handle": page_a }));
    table.set_clock(Duration::from_secs(61)); // the app's clock ran on too
    browser.tap("#end");
    let started = Instant::now();
    while table.timer(|t, _| t.current_player()) != 1 {
        assert!(started.elapsed() < PATIENCE, "the tap did not end the turn");
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(table.timer(|t, _| t.stats()[0].turns), 1, "ended once");
    assert_eq!(
        table.timer(|t, _| t.stats()[0].timeouts),
        1,
        "after its time ran out"
    );
    browser.wait_for(
        "page A to show Bo's turn",
        "return document.getElementById('whose').textContent === \"Bo's turn\"",
    );
    assert_eq!(
        browser.eval("return document.getElementById('end').disabled"),
        json!(true)
    );

    // Page B got the change pushed, without reloading.
    browser.call("POST", "/window", json!({ "handle": page_b }));
    browser.wait_for(
        "page B to show Bo's turn",
        "return document.getElementById('whose').textContent === \"Bo's turn\"",
    );
    assert_eq!(browser.text("nextline"), "You are next");
    drop(browser);
    table.stop();
}

/// `document.getElementById(id).textContent === text`, for `wait_for`.
fn shows(id: &str, text: &str) -> String {
    format!(
        "const e = document.getElementById('{id}'); return !!e && e.textContent === {};",
        json!(text)
    )
}

#[test]
#[ignore = "needs Debian chromium + chromium-driver; .ci/run installs them and runs ignored tests"]
fn a_second_phone_is_told_the_seat_is_taken_starts_the_clock_and_sees_errors_beside_the_tap() {
    let table = Table::idle(0);
    let url = format!("http://{}{}", table.addr, table.path(""));
    let browser = Browser::launch();

    // Ann's phone takes seat 0; the clock has not started.
    browser.go(&format!("{url}?lang=en"));
    browser.wait_for(
        "the seat buttons",
        "return document.querySelectorAll('#seats button').length === 4",
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('.taken').length"),
        json!(0),
        "no seat is taken yet"
    );
    browser.tap("#seats button[data-seat='0']");
    browser.wait_for(
        "Ann's play view",
        &shows("whose", "Not started · Ann starts"),
    );
    assert_eq!(browser.text("pause"), "Start");
    let ann = browser.handle();

    // A second phone (a tab of the same browser remembers seat 0 too): both are told.
    let other = browser.new_tab();
    browser.go(&format!("{url}?lang=en"));
    browser.wait_for(
        "the second phone told it shares the seat",
        &shows("elsewhere", "This seat is open on another phone too."),
    );
    // It changes seat: Ann's seat says it is on another phone, and taking it asks first,
    // right under the seat tapped.
    browser.tap("#change");
    browser.wait_for(
        "the taken seat",
        "const b = document.querySelector(\"#seats button[data-seat='0']\"); \
         return !!b && b.classList.contains('taken') && b.textContent.includes('Already on another phone');",
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('.taken').length"),
        json!(1),
        "only Ann's seat"
    );
    browser.tap("#seats button[data-seat='0']");
    browser.wait_for(
        "the question",
        "return !!document.getElementById('confirm')",
    );
    assert_eq!(
        browser
            .text("confirm")
            .split("Use it here too")
            .next()
            .unwrap_or_default(),
        "Ann is already on another phone. Use this seat on this phone too?"
    );
    assert_eq!(
        browser
            .eval("return document.getElementById('confirm').previousElementSibling.dataset.seat"),
        json!("0"),
        "the question sits right under the seat tapped"
    );
    browser.screenshot("phone-seat-taken");
    browser.tap("#confirm-no");
    browser.wait_for(
        "the question gone",
        "return !document.getElementById('confirm')",
    );
    assert!(
        !browser
            .eval("return document.getElementById('pick').hidden")
            .as_bool()
            .unwrap_or(true)
    );
    // A free seat is taken at once: Bo.
    browser.tap("#seats button[data-seat='1']");
    browser.wait_for("Bo's play view", &shows("me", "You: Bo"));
    assert_eq!(browser.text("elsewhere"), "");

    // Start from Bo's phone: the first turn starts (Ann's), as with the key.
    assert_eq!(browser.text("pause"), "Start");
    browser.tap("#pause");
    let started = Instant::now();
    while table.timer(|t, _| t.phase()) != rummikub_companion::timer::Phase::Running {
        assert!(
            started.elapsed() < PATIENCE,
            "Start did not start the clock"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        table.timer(|t, _| (t.current_player(), t.turn_id())),
        (0, Some(1))
    );
    browser.wait_for(
        "Bo's page to show the clock running",
        &shows("pause", "Pause"),
    );
    assert_eq!(browser.text("whose"), "Ann's turn");
    assert_eq!(browser.text("pause-msg"), "", "no refusal");

    // A refusal is shown beside the control that was tapped: the rack form's…
    table
        .apply(rummikub_companion::evening::Command::AddGame)
        .expect("the add-game form");
    browser.wait_for(
        "the rack form",
        "return !document.getElementById('rack').hidden",
    );
    browser.type_into("#rack-input", "Q9");
    browser.tap("#rack-send");
    browser.wait_for(
        "the rack's refusal",
        "return document.getElementById('rack-msg').textContent.startsWith('Not a number or tiles')",
    );
    assert_eq!(
        browser.eval("return document.getElementById('rack-msg').closest('form').id"),
        json!("rack")
    );
    assert_eq!(
        browser.eval("return document.getElementById('rack-msg').classList.contains('bad')"),
        json!(true),
        "shown as a refusal"
    );
    assert_eq!(
        browser.eval("return document.getElementById('msg')"),
        Value::Null,
        "no far-away line"
    );
    assert_eq!(browser.text("end-msg") + &browser.text("pause-msg"), "");

    // …and the end button's: Ann's page has not heard that the laptop ended her turn (its
    // feed is held back here) and she taps End.
    browser.switch_to(&ann);
    browser.wait_for("Ann's turn on her page", &shows("whose", "Your turn"));
    browser.eval("source.close();");
    table.clock.advance(Duration::from_secs(2));
    table
        .apply(rummikub_companion::evening::Command::Primary)
        .expect("the laptop ends Ann's turn");
    browser.tap("#end");
    browser.wait_for(
        "the refusal under the End button",
        &shows("end-msg", "That turn has already ended."),
    );
    assert_eq!(
        browser.eval("return document.getElementById('end-msg').previousElementSibling.id"),
        json!("end"),
        "right under the button tapped"
    );
    assert_eq!(
        browser.eval("return document.getElementById('end-msg').className"),
        json!("tapmsg note"),
        "another tap came first: a note, not an error"
    );
    assert_eq!(browser.text("pause-msg"), "");
    browser.screenshot("phone-error-beside-end");
    assert_eq!(
        table.timer(|t, _| t.current_player()),
        1,
        "ended once, by the laptop"
    );
    let _ = other;
    drop(browser);
    table.stop();
}

#[test]
#[ignore = "needs Debian chromium + chromium-driver; .ci/run installs them and runs ignored tests"]
fn when_the_laptop_goes_the_page_says_connection_lost_and_stops_counting() {
    let table = Table::start(0);
    let url = format!("http://{}{}", table.addr, table.path(""));
    let browser = Browser::launch();
    browser.go(&format!("{url}?lang=en#seat=0"));
    browser.wait_for("the play view", &shows("whose", "Your turn"));
    table.set_clock(Duration::from_secs(20));
    browser.wait_for("the clock at 0:40", &shows("clock", "0:40"));
    // The page counts down by itself while connected.
    browser.wait_for("the page's own countdown", &shows("clock", "0:39"));

    table.stop();
    browser.wait_for(
        "connection lost",
        "return document.body.classList.contains('lost')",
    );
    assert_eq!(browser.text("whose"), "Connection lost");
    assert_eq!(browser.text("clock"), "–:––", "no clock from a stale state");
    assert_eq!(
        browser.text("nextline"),
        "The clock is hidden until the laptop answers again."
    );
    for button in ["end", "pause"] {
        assert_eq!(
            browser.eval(&format!(
                "return document.getElementById('{button}').disabled"
            )),
            json!(true),
            "{button} cannot be tapped"
        );
    }
    browser.wait_for(
        "the banner",
        "const b = document.getElementById('conn'); return !b.hidden && b.textContent.startsWith('Disconnected from the laptop')",
    );
    // It stays so: no countdown resumes from what it last heard.
    std::thread::sleep(Duration::from_millis(2_500));
    assert_eq!(browser.text("clock"), "–:––");
    assert_eq!(browser.text("whose"), "Connection lost");
    browser.screenshot("phone-connection-lost");
}

#[test]
#[ignore = "needs Debian chromium + chromium-driver; .ci/run installs them and runs ignored tests"]
fn a_korean_page_shows_the_korean_words_from_words_js() {
    let table = Table::start(0);
    let url = format!("http://{}{}", table.addr, table.path(""));
    let browser = Browser::launch();
    browser.go(&format!("{url}?lang=ko"));
    browser.wait_for(
        "the seat buttons",
        "return document.querySelectorAll('#seats button').length === 4",
    );
    assert_eq!(browser.text("pick-title"), "내 자리를 고르세요");
    assert_eq!(
        browser.eval("return window.RC_WORDS.ko.pickTitle === document.getElementById('pick-title').textContent"),
        json!(true),
        "the words come from words.js"
    );
    assert_eq!(
        browser.eval("return document.documentElement.lang"),
        json!("ko")
    );
    browser.tap("#seats button[data-seat='1']");
    browser.wait_for("Bo's play view", &shows("me", "나: Bo"));
    assert_eq!(browser.text("whose"), "Ann 차례");
    assert_eq!(browser.text("nextline"), "다음은 내 차례");
    assert_eq!(browser.text("end"), "내 차례 끝내기");
    assert_eq!(browser.text("pause"), "일시정지");
    assert_eq!(browser.text("change"), "자리 바꾸기");
    browser.screenshot("phone-ko");
    drop(browser);
    table.stop();
}

#[test]
#[ignore = "needs Debian chromium + chromium-driver; .ci/run installs them and runs ignored tests"]
fn the_tv_page_shows_results_and_then_the_standings_as_they_are_pushed() {
    let night = crate::util::club::Night::new();
    let addr = night.host(rummikub_companion::lang::Language::English, false);
    let browser = Browser::launch();
    browser.go(&format!("http://{addr}/tv"));
    browser.wait_for(
        "two tables playing",
        "return document.querySelectorAll('.table[data-finished=false]').length === 2",
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('svg.qr').length"),
        json!(2)
    );
    night.result(1);
    browser.wait_for(
        "table 1's result",
        "return document.querySelector('.table[data-table=\"1\"]').dataset.finished === 'true'",
    );
    assert_eq!(
        browser.eval("return document.querySelectorAll('#standings tbody tr').length"),
        json!(0),
        "round 1's standings are held back while table 2 plays"
    );
    night.result(2);
    browser.wait_for(
        "the standings",
        "return document.querySelectorAll('#standings tbody tr').length === 8",
    );
    let heading = browser.eval("return document.querySelector('#standings h2').textContent");
    assert_eq!(heading, json!("Standings after round 1"));
    browser.screenshot("tv");
    drop(browser);
}

/// The recorder that stands in for the phone's voice: every `speechSynthesis.speak` is kept as
/// `lang:text`, every `cancel` as `<cancel>`.
const SPEECH_RECORDER: &str = "window.said = []; \
    speechSynthesis.speak = (u) => { window.said.push(`${u.lang}:${u.text}`); }; \
    speechSynthesis.cancel = () => { window.said.push('<cancel>'); };";

fn said(browser: &Browser) -> Vec<String> {
    let v = browser.eval("return window.said");
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
#[ignore = "needs Debian chromium + chromium-driver; .ci/run installs them and runs ignored tests"]
fn the_phone_speaks_its_players_turn_in_its_language_and_every_event_when_asked() {
    let table = Table::start(0); // Ann's turn, 60 s, warning at 10 s
    let url = format!("http://{}{}", table.addr, table.path(""));
    let browser = Browser::launch();

    // Ann's phone, in English: joining is the tap that unlocks the voice.
    browser.go(&format!("{url}?lang=en"));
    browser.wait_for(
        "the seat buttons",
        "return document.querySelectorAll('#seats button').length === 4",
    );
    browser.eval(SPEECH_RECORDER);
    browser.tap("#seats button[data-seat='0']");
    browser.wait_for(
        "the play view",
        "return !document.getElementById('play').hidden",
    );
    assert_eq!(
        said(&browser),
        ["en-US:"],
        "the join tap speaks once, silently"
    );
    assert_eq!(browser.text("speak-label"), "Speak (my turn)");
    let page_a = browser.handle();

    // Ann's warning, counted down on the phone itself: said in the page's language.
    table.set_clock(Duration::from_millis(49_600));
    browser.wait_for("the warning words", "return window.said.length === 2");
    assert_eq!(said(&browser)[1], "en-US:10 seconds");

    // Bo's phone, in Korean (a tab of the same browser remembers Ann's seat: change it).
    let page_b = browser.new_tab();
    browser.go(&format!("{url}?lang=ko"));
    browser.wait_for(
        "the play view",
        "return !document.getElementById('play').hidden",
    );
    browser.tap("#change");
    browser.wait_for(
        "the seat buttons",
        "return document.querySelectorAll('#seats button').length === 4",
    );
    browser.eval(SPEECH_RECORDER);
    browser.tap("#seats button[data-seat='1']");
    browser.wait_for(
        "the play view",
        "return !document.getElementById('play').hidden",
    );

    // Ann's turn ends on the laptop: Bo's phone says so at once, cutting off anything else.
    table.set_clock(Duration::from_secs(55));
    let ended = Instant::now();
    table.apply(Ask::Primary).expect("Bo's turn");
    browser.wait_for("Bo's turn, said", "return window.said.length === 3");
    println!(
        "turn change → phone speaks: {} ms",
        ended.elapsed().as_millis()
    );
    assert_eq!(
        said(&browser),
        ["ko-KR:", "<cancel>", "ko-KR:Bo 차례입니다"]
    );

    // Ann's phone said nothing of Bo's turn (by default only its own player's) …
    browser.switch_to(&page_a);
    assert_eq!(said(&browser), ["en-US:", "en-US:10 seconds"]);
    // … until "every event" is on (kept for the next visit).
    browser.tap("#speak-all");
    assert_eq!(
        browser.eval("return localStorage.getItem('rummikub-companion.speakAll')"),
        json!("1")
    );
    let mut settings = table.evening.lock().settings().clone();
    settings.spoken.insert("Cy".into(), "Sy".into());
    table
        .apply(Ask::Settings(Box::new(settings)))
        .expect("a spoken name");
    table.set_clock(Duration::from_secs(57));
    table.apply(Ask::Primary).expect("Cy's turn");
    browser.wait_for("Cy's turn, said", "return window.said.length === 4");
    table.set_clock(Duration::from_secs(58));
    table.apply(Ask::TogglePause).expect("paused");
    browser.wait_for("the pause, said", "return window.said.length === 5");
    assert_eq!(
        said(&browser)[2..],
        ["<cancel>", "en-US:Sy's turn", "en-US:paused"][..],
        "the spoken form of Cy's name, then the pause"
    );

    // Bo's phone, still on "my turn only", heard neither.
    browser.switch_to(&page_b);
    assert_eq!(said(&browser).len(), 3);
}

// PARKED while the table page is rewritten for seats bound to phones (restored in the same change).
#[cfg(any())]
#[test]
#[ignore = "needs Debian chromium + chromium-driver; .ci/run installs them and runs ignored tests"]
fn a_phone_at_a_club_table_plays_a_turn_enters_its_rack_confirms_and_the_tv_shows_it_live() {
    use crate::event_tables::{act, confirm, key, rack, serve, table_result};
    let night = crate::event_serve::Night::new();
    let server = serve(&night);
    let addr = server.local_addr();
    let k = key(addr, 1);
    let event = night.event();
    let names = event.seat_names(&event.rounds()[0].tables[0]);
    let browser = Browser::launch();
    let phone = browser.handle();

    // Seat 0's phone, from the table's QR code: pick the seat once, then play.
    browser.go(&format!("http://{addr}/table/1?lang=en&key={k}"));
    browser.wait_for(
        "the seat chooser",
        "return !document.getElementById('chooser').hidden",
    );
    browser.tap("#seat-0");
    assert_eq!(browser.text("me"), names[0]);
    browser.tap("#start");
    browser.wait_for(
        "my turn",
        "return document.getElementById('turn').textContent === 'Your turn'",
    );
    browser.wait_for(
        "the clock counting",
        "return /^[01]:\\d\\d$/.test(document.getElementById('clock').textContent)",
    );
    browser.screenshot("club-table-turn-en");
    browser.tap("#end-turn");
    let next = format!("{}'s turn", names[1]);
    browser.wait_for(
        "the next player's turn",
        &format!("return document.getElementById('turn').textContent === {next:?}"),
    );
    assert_eq!(
        browser.eval("return document.getElementById('end-turn').disabled"),
        json!(true),
        "not my turn: the button is off"
    );
    // Seat 1 ends their turn on their own phone (after the table's one-press guard, 400 ms).
    std::thread::sleep(Duration::from_millis(500));
    act(addr, 1, &k, "en", json!({"seat": 1, "action": "end_turn"}));
    let third = format!("{}'s turn", names[2]);
    browser.wait_for(
        "the pushed turn",
        &format!("return document.getElementById('turn').textContent === {third:?}"),
    );

    // The game ends: I went out; the others enter theirs.
    browser.type_into("#rack", "0");
    browser.tap("#save-rack");
    browser.wait_for(
        "saved",
        "return document.getElementById('msg').textContent === 'Saved on the laptop'",
    );
    for (seat, text) in [(1, "R5 J"), (2, "12"), (3, "B13 K13")] {
        rack(addr, 1, &k, seat, text);
    }
    browser.wait_for(
        "every rack and the points",
        "return document.querySelectorAll('#racks .points').length === 4",
    );
    assert_eq!(
        browser
            .eval("return document.querySelector('#racks li[data-seat=\"1\"] .rack').textContent"),
        json!("R5 J")
    );
    browser.tap("#confirm");
    browser.wait_for(
        "my confirmation",
        "return document.querySelector('#racks li[data-seat=\"0\"]').dataset.confirmed === 'true'",
    );
    browser.screenshot("club-table-settle-en");

    // The TV page, in another tab: the table's racks being confirmed, the other table stopped.
    let tv = browser.new_tab();
    browser.go(&format!("http://{addr}/tv"));
    browser.wait_for(
        "table 1 confirming",
        "return document.querySelector('.table[data-table=\"1\"] .settling').textContent === 'racks: 1 of 4 confirmed'",
    );
    assert_eq!(
        browser.eval("return /min left in the round$/.test(document.getElementById('round-clock').textContent)"),
        json!(true)
    );
    let k2 = key(addr, 2);
    act(addr, 2, &k2, "en", json!({"seat": 0, "action": "start"}));
    browser.wait_for(
        "table 2's clock on the TV",
        "return !!document.querySelector('.table[data-table=\"2\"] .clock[data-ends-in]')",
    );
    browser.screenshot("club-tv-live-en");
    for seat in 1..4 {
        confirm(addr, 1, &k, seat);
    }
    browser.wait_for(
        "table 1's result in",
        "return document.querySelector('.table[data-table=\"1\"]').dataset.finished === 'true'",
    );
    browser.switch_to(&phone);
    browser.wait_for(
        "the phone is told",
        "return document.getElementById('done').textContent === \"This table's result is in.\"",
    );
    assert!(table_result(&night, 1).is_some());
    let _ = tv;

    // Table 2's phone in Korean: its words, and a rack it cannot read named in Korean.
    browser.go(&format!("http://{addr}/table/2?lang=ko&key={k2}"));
    browser.wait_for(
        "the Korean chooser",
        "return document.querySelector('#chooser h2').textContent === '내 자리를 고르세요'",
    );
    browser.tap("#seat-1");
    browser.wait_for(
        "the Korean turn line",
        "return document.getElementById('turn').textContent.endsWith('차례')",
    );
    act(
        addr,
        2,
        &k2,
        "en",
        json!({"seat": 3, "action": "rack", "rack": "9"}),
    );
    browser.wait_for(
        "the rack form",
        "return !document.getElementById('settle').hidden",
    );
    browser.type_into("#rack", "빨5 Q");
    browser.tap("#save-rack");
    browser.wait_for(
        "a Korean refusal",
        "return document.getElementById('msg').className === 'error' && /Q/.test(document.getElementById('msg').textContent)",
    );
    browser.screenshot("club-table-ko");

    // The TV page in Korean: table 1 done, table 2's clock and the round clock in Korean.
    browser.go(&format!("http://{addr}/tv?lang=ko"));
    browser.wait_for(
        "the Korean round clock",
        "return /^라운드 종료까지 \\d+분$/.test(document.getElementById('round-clock').textContent)",
    );
    browser.wait_for(
        "table 1 finished on the Korean TV",
        "return document.querySelector('.table[data-table=\"1\"]').dataset.finished === 'true'",
    );
    browser.screenshot("club-tv-live-ko");
    drop(browser);
    server.stop();
}

/// The smallest font size (CSS pixels) of any text in `.table` cards matching `within`, the
/// QR code's caption left out (read up close).
fn smallest_text(browser: &Browser, within: &str) -> f64 {
    let script = format!(
        "let least = Infinity;\
         for (const el of document.querySelectorAll({within:?})) {{\
           if (el.closest('figcaption')) continue;\
           const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());\
           if (own) least = Math.min(least, parseFloat(getComputedStyle(el).fontSize));\
         }}\
         return least;"
    );
    browser.eval(&script).as_f64().expect("a size")
}

/// The tables wholly on the screen now.
fn tables_in_view(browser: &Browser) -> Vec<u64> {
    let shown = browser.eval(
        "return [...document.querySelectorAll('.table')].filter(t => {\
           const r = t.getBoundingClientRect();\
           return r.top >= 0 && r.bottom <= window.innerHeight;\
         }).map(t => Number(t.dataset.table));",
    );
    shown
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(Value::as_u64)
        .collect()
}

/// The TV page on a 1080p screen, as a club night hangs it on the wall: a 24-player night's six
/// tables fit on one screen, a table's number, names, whose turn and clock are at least 40 px
/// (a 27th of the screen's height) and nothing else on a card under 28 px; a 100-player night's
/// 25 tables are shown a screenful at a time, every table wholly on screen in turn, then the
/// top again.
// PARKED while the table page is rewritten for seats bound to phones (restored in the same change).
#[cfg(any())]
#[test]
#[ignore = "needs Debian chromium + chromium-driver; .ci/run installs them and runs ignored tests"]
fn the_tv_page_on_a_1080p_screen_fits_six_tables_in_large_type_and_pages_through_twenty_five() {
    use crate::event_tables::{act, key, serve};
    let night = crate::event_serve::Night::of(24);
    let server = serve(&night);
    let addr = server.local_addr();
    act(
        addr,
        1,
        &key(addr, 1),
        "en",
        json!({"seat": 0, "action": "start"}),
    );
    let browser = Browser::launch_screen(1920, 1080);
    browser.go(&format!("http://{addr}/tv"));
    browser.wait_for(
        "six tables, table 1's clock running",
        "return document.querySelectorAll('.table').length === 6 \
         && !!document.querySelector('.table[data-table=\"1\"] .clock[data-ends-in]')",
    );
    assert_eq!(
        browser.eval("return [window.innerWidth, window.innerHeight]"),
        json!([1920, 1080])
    );
    assert_eq!(
        tables_in_view(&browser),
        [1, 2, 3, 4, 5, 6],
        "all six on one screen"
    );
    let key_parts = smallest_text(&browser, ".table h3 a, .seats li, .live .turn, .clock");
    assert!(key_parts >= 40.0, "names, turn and clock at {key_parts} px");
    let rest = smallest_text(&browser, ".table, .table *");
    assert!(rest >= 28.0, "the smallest text on a card is {rest} px");
    browser.screenshot("club-tv-1080p-en");
    server.stop();

    let night = crate::event_serve::Night::of(100);
    let server = serve(&night);
    let addr = server.local_addr();
    browser.go(&format!("http://{addr}/tv?lang=ko&page=1"));
    browser.wait_for(
        "25 tables",
        "return document.querySelectorAll('.table').length === 25",
    );
    browser.screenshot("club-tv-1080p-100-ko");
    let mut seen: std::collections::BTreeSet<u64> = tables_in_view(&browser).into_iter().collect();
    let first_screen = seen.len();
    assert!(
        (6..25).contains(&first_screen),
        "{first_screen} tables on the first screen"
    );
    let started = Instant::now();
    let mut last = 0.0;
    let mut wrapped = false;
    while started.elapsed() < PATIENCE && !wrapped {
        std::thread::sleep(Duration::from_millis(200));
        let y = browser
            .eval("return window.scrollY")
            .as_f64()
            .expect("scrollY");
        if y < last {
            wrapped = y == 0.0;
        } else if y > last {
            seen.extend(tables_in_view(&browser));
        }
        last = y;
    }
    assert!(wrapped, "back to the top after the last screenful");
    assert_eq!(
        seen.len(),
        25,
        "every table wholly on screen in turn: {seen:?}"
    );
    drop(browser);
    server.stop();
}
