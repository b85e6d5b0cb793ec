// A table's page for its phones (event serve, from the table's QR code): pick your seat once,
// then the table's clock, "End my turn", and at a game's end your own rack and your
// confirmation of the whole game. The laptop decides everything (src/server/club.rs) and
// pushes the table's state by server-sent events; this page never polls. Its words come from
// the laptop in the page's language (<script id="words">), none are written here.
(function () {
  "use strict";
  var body = document.body;
  var lang = body.dataset.lang || "en";
  var table = body.dataset.table;
  var play = document.getElementById("play");
  var key = play.dataset.key;
  var players = JSON.parse(play.dataset.players);
  var words = JSON.parse(document.getElementById("words").textContent);
  var board = document.getElementById("board");
  var offline = document.getElementById("offline");
  var seatKey = "rummikub-table-seat-" + table + "-" + key;
  var seat = null;
  try {
    var kept = window.localStorage.getItem(seatKey);
    if (kept !== null && Number(kept) < players.length) seat = Number(kept);
  } catch (e) { /* no storage: the seat is asked again after a reload */ }
  var state = null;
  var received = performance.now();

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k]; });
  }
  function mmss(ms) {
    var s = Math.ceil(Math.max(0, ms) / 1000);
    var r = s % 60;
    return Math.floor(s / 60) + ":" + (r < 10 ? "0" : "") + r;
  }

  // The parts of the page, made once; a message only changes their text and state, so a rack
  // being typed is never replaced under the player's fingers.
  var chooser = el("section", { id: "chooser" });
  chooser.appendChild(el("h2", {}, words.who));
  players.forEach(function (name, i) {
    var b = el("button", { id: "seat-" + i, type: "button", "class": "seat" }, name);
    b.addEventListener("click", function () { choose(i); });
    chooser.appendChild(b);
  });
  var mine = el("section", { id: "mine" });
  var me = el("p", { id: "me" });
  var change = el("button", { id: "change-seat", type: "button", "class": "small" }, words.change_seat);
  var game = el("p", { id: "game" });
  var turn = el("p", { id: "turn", "aria-live": "polite" });
  var clock = el("p", { id: "clock" });
  var endTurn = el("button", { id: "end-turn", type: "button", "class": "big" }, words.end_turn);
  var start = el("button", { id: "start", type: "button" }, words.start);
  var pause = el("button", { id: "pause", type: "button" }, words.pause);
  var settle = el("section", { id: "settle" });
  var hint = el("p", { "class": "hint" }, words.game_over);
  var rackLabel = el("label", { "for": "rack" }, words.my_rack);
  var rack = el("input", { id: "rack", type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false" });
  var meldLabel = el("label", { "class": "check" });
  var notMelded = el("input", { id: "not-melded", type: "checkbox" });
  meldLabel.appendChild(notMelded);
  meldLabel.appendChild(document.createTextNode(" " + words.not_melded));
  var saveRack = el("button", { id: "save-rack", type: "button" }, words.save_rack);
  var racksTitle = el("h3", {}, words.racks);
  var racks = el("ul", { id: "racks" });
  var winnerLabel = el("label", { "for": "winner" }, words.winner);
  var winner = el("select", { id: "winner" });
  var problem = el("p", { id: "problem", "class": "problem" });
  var confirm = el("button", { id: "confirm", type: "button", "class": "big" }, words.confirm);
  var message = el("p", { id: "msg", "aria-live": "assertive" });
  var done = el("p", { id: "done", "class": "done" });
  winner.appendChild(el("option", { value: "" }, words.no_winner));
  players.forEach(function (name, i) { winner.appendChild(el("option", { value: String(i) }, name)); });
  [hint, rackLabel, rack, meldLabel, saveRack, racksTitle, racks, winnerLabel, winner, problem, confirm]
    .forEach(function (n) { settle.appendChild(n); });
  [me, change, game, turn, clock, endTurn, start, pause, settle, message, done]
    .forEach(function (n) { mine.appendChild(n); });
  play.appendChild(chooser);
  play.appendChild(mine);
  // On a phone the buttons come first; the table's board (seats, games) below them.
  board.parentNode.insertBefore(play, board);

  function choose(i) {
    seat = i;
    try { window.localStorage.setItem(seatKey, String(i)); } catch (e) { /* kept for this page only */ }
    render();
  }
  change.addEventListener("click", function () {
    seat = null;
    try { window.localStorage.removeItem(seatKey); } catch (e) { /* nothing kept */ }
    render();
  });

  var busy = false;
  function send(action, extra) {
    if (busy || seat === null) return;
    busy = true;
    var request = { key: key, seat: seat, action: action };
    Object.keys(extra || {}).forEach(function (k) { request[k] = extra[k]; });
    fetch("/table/" + table + "/act?lang=" + encodeURIComponent(lang), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request)
    }).then(function (r) { return r.json(); }).then(function (answer) {
      message.textContent = answer.ok ? (answer.saved ? words.saved : "") : answer.message;
      message.className = answer.ok ? "ok" : "error";
    }).catch(function () {
      message.textContent = words.failed;
      message.className = "error";
    }).then(function () { busy = false; });
  }
  endTurn.addEventListener("click", function () { send("end_turn"); });
  start.addEventListener("click", function () {
    var t = state && state.table;
    send(t && t.turn !== null && !t.running ? "resume" : "start");
  });
  pause.addEventListener("click", function () { send("pause"); });
  saveRack.addEventListener("click", function () {
    send("rack", { rack: rack.value, not_melded: notMelded.checked });
  });
  rack.addEventListener("keydown", function (e) {
    if (e.key === "Enter") { e.preventDefault(); saveRack.click(); }
  });
  winner.addEventListener("change", function () {
    send("winner", { winner: winner.value === "" ? null : Number(winner.value) });
  });
  confirm.addEventListener("click", function () { send("confirm"); });

  function tick() {
    var gone = performance.now() - received;
    var shown = board.querySelectorAll(".clock[data-ends-in]");
    for (var i = 0; i < shown.length; i++) {
      var rest = Number(shown[i].dataset.endsIn) - gone;
      shown[i].textContent = mmss(rest);
      shown[i].classList.toggle("over", rest <= 0);
    }
    var t = state && state.table;
    if (!t || t.turn === null || t.settling) { clock.textContent = ""; return; }
    var left = t.running ? t.ends_at_ms - state.now_ms - (performance.now() - received) : t.left_ms;
    clock.textContent = left > 0 ? mmss(left) : words.time_up;
    clock.className = left > 0 ? (t.running ? "running" : "paused") : "over";
  }

  function render() {
    chooser.hidden = seat !== null;
    mine.hidden = seat === null;
    if (seat === null || !state || !state.table) return;
    var t = state.table;
    me.textContent = players[seat];
    var finished = t.finished || t.games_done >= t.games;
    done.textContent = t.finished ? words.recorded : (finished ? words.finished : "");
    game.textContent = finished ? "" : fill(words.game_of, { n: t.games_done + 1, total: t.games });
    var s = t.settling;
    settle.hidden = finished;
    [endTurn, start, pause, turn, clock].forEach(function (n) { n.hidden = finished || !!s; });
    if (!finished && !s) {
      var myTurn = t.turn === seat;
      turn.textContent = t.turn === null ? words.stopped
        : (!t.running ? words.paused + " · " : "") +
          (myTurn ? words.your_turn : fill(words.turn_of, { name: players[t.turn] }));
      turn.className = myTurn ? "mine" : "";
      endTurn.disabled = !(myTurn && t.running);
      start.hidden = t.running;
      pause.hidden = !t.running;
    }
    racks.innerHTML = "";
    players.forEach(function (name, i) {
      var entered = s && s.racks[i] !== null;
      var li = el("li", { "data-seat": String(i), "data-confirmed": String(!!(s && s.confirmed[i])) });
      li.appendChild(el("span", { "class": "name" }, name));
      li.appendChild(el("span", { "class": "rack" }, entered ? state.racks[i] : words.not_entered));
      if (s && s.points) li.appendChild(el("span", { "class": "points" }, (s.points[i] > 0 ? "+" : "") + s.points[i] + " " + words.points));
      li.appendChild(el("span", { "class": "mark" }, s && s.confirmed[i] ? words.confirmed : words.to_confirm));
      racks.appendChild(li);
    });
    [racksTitle, racks, winnerLabel, winner, confirm].forEach(function (n) { n.hidden = !s; });
    if (s) {
      if (document.activeElement !== winner) winner.value = s.winner === null ? "" : String(s.winner);
      confirm.disabled = s.confirmed[seat] || s.racks.indexOf(null) >= 0 || !!state.problem;
    }
    problem.textContent = state.problem || "";
    problem.hidden = !state.problem;
    tick();
  }

  var feed = new EventSource("/tv/events?lang=" + encodeURIComponent(lang) + "&table=" + encodeURIComponent(table));
  feed.addEventListener("state", function (e) {
    try {
      state = JSON.parse(e.data);
      received = performance.now();
      board.innerHTML = state.html;
      offline.hidden = true;
      render();
    } catch (err) {
      // A message that is not JSON is ignored; the next one replaces it.
    }
  });
  feed.addEventListener("error", function () { offline.hidden = false; });
  setInterval(tick, 250);
  render();
})();
