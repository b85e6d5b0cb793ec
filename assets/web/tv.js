// The TV page, and a table's board without its key (read-only) or of an earlier round (event
// serve): the laptop makes the board in the page's language and pushes it by server-sent
// events — the whole board first, then only the parts that changed ({id: html}) — and this
// script swaps them in and counts the clocks down between messages on the laptop's clock (a
// table's turn, the round clock). It holds no words (they come from src/i18n, as data-*
// templates) and never polls.
(function () {
  "use strict";
  var body = document.body;
  var query = "lang=" + encodeURIComponent(body.dataset.lang || "en");
  if (body.dataset.table) {
    query += "&table=" + encodeURIComponent(body.dataset.table);
    // A page of an earlier round names its old key: it is told so, never shown the new round.
    var key = new URLSearchParams(window.location.search).get("key");
    if (key) query += "&key=" + encodeURIComponent(key);
  }
  var board = document.getElementById("board");
  var offline = document.getElementById("offline");
  // The laptop's clock (data-ends-at is on it): the page's clock plus an offset, from the
  // page's data-now and then each message's now_ms.
  var offset = Number(body.dataset.now) - performance.now();

  function mmss(ms) {
    var s = Math.ceil(Math.max(0, ms) / 1000);
    var r = s % 60;
    return Math.floor(s / 60) + ":" + (r < 10 ? "0" : "") + r;
  }

  // Every clock shows its time left until its data-ends-at; a table's clock is not shown while
  // the laptop cannot be reached (its turn may have ended meanwhile).
  function tick() {
    var now = performance.now() + offset;
    var lost = !offline.hidden;
    var clocks = board.querySelectorAll(".clock[data-ends-at]");
    for (var i = 0; i < clocks.length; i++) {
      var left = Number(clocks[i].dataset.endsAt) - now;
      clocks[i].textContent = lost ? "" : mmss(left);
      clocks[i].classList.toggle("over", left <= 0);
    }
    var round = document.getElementById("round-clock");
    if (round && round.dataset.endsAt) {
      var rest = Number(round.dataset.endsAt) - now;
      round.textContent = rest <= 0
        ? round.dataset.over
        : round.dataset.template.replace("{m}", String(Math.ceil(rest / 60000)));
      round.classList.toggle("over", rest <= 0);
    }
  }

  // A part replaces the element with its id; a table's live line (`tN-live`) fills its element.
  // Whole parts go first: a table's card sent again comes with its live line after it.
  function apply(parts) {
    var ids = Object.keys(parts);
    var whole = ids.filter(function (id) { return !/-live$/.test(id); });
    var lines = ids.filter(function (id) { return /-live$/.test(id); });
    var missing = false;
    whole.concat(lines).forEach(function (id) {
      var node = document.getElementById(id);
      if (!node) { missing = true; return; }
      if (/-live$/.test(id)) node.innerHTML = parts[id];
      else node.outerHTML = parts[id];
    });
    return !missing;
  }

  var feed = null;
  function onState(e) {
    var message;
    try { message = JSON.parse(e.data); } catch (err) { return; /* the next one replaces it */ }
    if (typeof message.now_ms === "number") offset = message.now_ms - performance.now();
    offline.hidden = true;
    if (typeof message.html === "string") {
      board.innerHTML = message.html;
    } else if (message.parts && !apply(message.parts)) {
      // A part with nowhere to go: a new feed starts with the whole board.
      connect();
      return;
    }
    if (message.gone) {
      // An earlier round's page: nothing more will come for it.
      feed.close();
    }
    tick();
  }
  function connect() {
    if (feed) feed.close();
    feed = new EventSource("/tv/events?" + query);
    feed.addEventListener("state", onState);
    feed.addEventListener("error", function () {
      // EventSource reconnects by itself; the page says so meanwhile.
      offline.hidden = false;
      tick();
    });
  }
  connect();
  setInterval(tick, 500);

  // A TV with more tables than fit on its screen shows them a screenful at a time: every
  // `page` seconds (12, or ?page=N) it scrolls to the first table (or the standings) not
  // wholly in view, and back to the top after the last. Not on a table's page, not on a narrow
  // screen (a phone scrolls by hand), and not for a minute after someone scrolls or touches.
  var seconds = Number(new URLSearchParams(location.search).get("page")) || 12;
  var touched = -Infinity;
  ["wheel", "touchstart", "keydown", "mousedown"].forEach(function (kind) {
    window.addEventListener(kind, function () { touched = performance.now(); }, { passive: true });
  });
  function turnPage() {
    if (body.dataset.table || window.innerWidth < 900) return;
    if (performance.now() - touched < 60000) return;
    var bottom = window.innerHeight;
    var parts = board.querySelectorAll(".table, #standings");
    var next = null;
    for (var i = 0; i < parts.length; i++) {
      var box = parts[i].getBoundingClientRect();
      if (box.height > 0 && box.bottom > bottom + 1) {
        next = parts[i];
        break;
      }
    }
    var was = window.scrollY;
    if (next) {
      // A part taller than the screen goes on by a screenful.
      var by = next.getBoundingClientRect().top - 8;
      window.scrollTo(0, was + (by >= 1 ? by : bottom * 0.9));
    }
    if (!next || window.scrollY === was) {
      window.scrollTo(0, 0);
    }
  }
  setInterval(turnPage, seconds * 1000);
})();
