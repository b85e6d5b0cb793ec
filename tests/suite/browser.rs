//! A real browser on the phone page: Debian's headless Chromium driven over WebDriver
//! (chromedriver, plain HTTP JSON) at a phone viewport of 390×844. `.ci/run` installs
//! `chromium chromium-driver` and runs the ignored tests; when Chromium is installed but cannot
//! be driven, the test fails.

use std::net::{SocketAddr, TcpListener};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

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
    fn launch() -> Browser {
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
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    format!("--user-data-dir={profile}"), "--window-size=390,844", "--lang=en-US",
                ],
                "mobileEmulation": {
                    "deviceMetrics": { "width": 390, "height": 844, "pixelRatio": 3.0, "touch": true }
                }
            }
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

    /// A real tap on the element matching `css` (WebDriver element click).
    fn tap(&self, css: &str) {
        let found = self.call(
            "POST",
            "/element",
            json!({ "using": "css selector", "value": css }),
        );
        let id = found
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {found}"))
            .to_string();
        self.call("POST", &format!("/element/{id}/click"), json!({}));
    }
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
    let page_a = browser
        .call("GET", "/window", json!({}))
        .as_str()
        .expect("handle")
        .to_string();

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
