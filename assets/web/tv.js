// The TV page and a table's read-only page (event serve): the laptop makes the board in the
// page's language and pushes a new one by server-sent events whenever it changes; this script
// swaps it in and counts the clocks down between messages (a table's turn, the round clock).
// It holds no words (they come from src/i18n, as data-* templates) and never polls.
(function () {
  "use strict";
  var body = document.body;
  var query = "lang=" + encodeURIComponent(body.dataset.lang || "en");
  if (body.dataset.table) {
    query += "&table=" + encodeURIComponent(body.dataset.table);
  }
  var board = document.getElementById("board");
  var offline = document.getElementById("offline");
  var received = performance.now();

  function mmss(ms) {
    var s = Math.ceil(Math.max(0, ms) / 1000);
    var r = s % 60;
    return Math.floor(s / 60) + ":" + (r < 10 ? "0" : "") + r;
  }

  // Every clock shows its time left from when the board came (data-ends-in, in ms then).
  function tick() {
    var gone = performance.now() - received;
    var clocks = board.querySelectorAll(".clock[data-ends-in]");
    for (var i = 0; i < clocks.length; i++) {
      var left = Number(clocks[i].dataset.endsIn) - gone;
      clocks[i].textContent = mmss(left);
      clocks[i].classList.toggle("over", left <= 0);
    }
    var round = document.getElementById("round-clock");
    if (round) {
      var rest = Number(round.dataset.endsIn) - gone;
      round.textContent = rest <= 0
        ? round.dataset.over
        : round.dataset.template.replace("{m}", String(Math.ceil(rest / 60000)));
      round.classList.toggle("over", rest <= 0);
    }
  }

  var feed = new EventSource("/tv/events?" + query);
  feed.addEventListener("state", function (e) {
    try {
      var message = JSON.parse(e.data);
      board.innerHTML = message.html;
      received = performance.now();
      offline.hidden = true;
      tick();
    } catch (err) {
      // A message that is not JSON is ignored; the next one replaces the board.
    }
  });
  feed.addEventListener("error", function () {
    // EventSource reconnects by itself; the page says so meanwhile.
    offline.hidden = false;
  });
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
