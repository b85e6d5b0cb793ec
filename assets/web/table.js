// A table's page for its phones (event serve, from the table's QR code on the TV). The player
// claims their seat once; from then on this phone acts for that seat only: the table's clock,
// "End my turn", the game's end (a step of its own), its own rack and its confirmation of the
// whole game. The laptop decides everything (src/club, src/server/tv.rs) and pushes the
// table's part by server-sent events; this page never polls. Its words come from the laptop
// in the page's language (<script id="words">); the only text written here is each language's
// own name on the language picker.
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

  function kept(name) {
    try { return window.localStorage.getItem(name); } catch (e) { return null; }
  }
  function keep(name, value) {
    try { window.localStorage.setItem(name, value); } catch (e) { /* kept for this page only */ }
  }

  // The language: a player's pick (remembered on this phone) wins over the phone's own, which
  // the laptop already answered in (Accept-Language). A pick reloads the page with ?lang=.
  var LANG = "rummikub-table-lang";
  var query = new URLSearchParams(window.location.search);
  function reloadIn(code) {
    query.set("lang", code);
    window.location.replace(window.location.pathname + "?" + query.toString());
  }
  var picked = kept(LANG);
  if (!query.has("lang") && (picked === "en" || picked === "ko") && picked !== lang) {
    reloadIn(picked);
    return;
  }

  // This phone's device token for this table's key (each round's table has a new key): 128
  // random bits, kept on the phone. Only the phone holding a seat's token acts for the seat.
  var DEVICE = "rummikub-table-device-" + table + "-" + key;
  function newToken() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }
  var device = kept(DEVICE);
  if (!/^[0-9A-Za-z_-]{16,64}$/.test(device || "")) {
    device = newToken();
    keep(DEVICE, device);
  }

  // The host's clock (the times in messages are on it): the page's clock plus an offset, set
  // from the page's data-now and again from each message's now_ms.
  var offset = Number(body.dataset.now) - performance.now();
  function hostNow() { return performance.now() + offset; }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function button(id, text, cls) {
    var b = el("button", { id: id, type: "button" }, text);
    if (cls) b.className = cls;
    return b;
  }
  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, k) { return values[k]; });
  }
  function mmss(ms) {
    var s = Math.ceil(Math.max(0, ms) / 1000);
    var r = s % 60;
    return Math.floor(s / 60) + ":" + (r < 10 ? "0" : "") + r;
  }
  function add(parent, children) {
    children.forEach(function (c) { parent.appendChild(c); });
    return parent;
  }

  // The page's parts, made once; a message only changes their text and state, so a rack being
  // typed is never replaced under the player's fingers.
  var langs = el("nav", { id: "langs", "aria-label": words.language });
  // Each language by its own name (the same in every language).
  [["ko", "한국어"], ["en", "English"]].forEach(function (pair) {
    var b = button("lang-" + pair[0], pair[1], "small");
    b.setAttribute("lang", pair[0]);
    b.setAttribute("aria-pressed", String(pair[0] === lang));
    b.addEventListener("click", function () {
      keep(LANG, pair[0]);
      if (pair[0] !== lang || !query.has("lang")) reloadIn(pair[0]);
    });
    langs.appendChild(b);
  });

  var allTaken = el("p", { id: "all-taken", "class": "hint" }, words.all_taken);
  var chooser = add(el("section", { id: "chooser" }), [el("h2", {}, words.who)]);
  var seats = players.map(function (name, i) {
    var b = button("seat-" + i, "", "seat");
    add(b, [el("span", { "class": "name" }, name), el("span", { "class": "taken-mark" }, words.taken)]);
    b.addEventListener("click", function () { send("claim", { seat: i }, b); });
    chooser.appendChild(b);
    return b;
  });
  chooser.appendChild(allTaken);

  var me = el("p", { id: "me" });
  var change = button("change-seat", words.change_seat, "small");
  var game = el("p", { id: "game" });
  var turn = el("p", { id: "turn", "aria-live": "polite" });
  var clock = el("p", { id: "clock" });
  var endTurn = button("end-turn", words.end_turn, "big");
  var start = button("start", words.start);
  var pause = button("pause", words.pause);
  var wentOut = button("went-out", words.went_out, "end");
  var poolOut = button("pool-out", words.pool_out, "end");
  var ending = add(el("div", { id: "ending" }), [el("p", { "class": "hint" }, words.game_end), wentOut, poolOut]);
  var playing = add(el("section", { id: "playing" }), [turn, clock, endTurn, start, pause, ending]);

  var ended = el("p", { id: "ended" });
  var hint = el("p", { "class": "hint" }, words.game_over);
  var rack = el("input", { id: "rack", type: "text", autocomplete: "off", autocapitalize: "characters", spellcheck: "false" });
  var notMelded = el("input", { id: "not-melded", type: "checkbox" });
  var meldLabel = add(el("label", { "class": "check" }), [notMelded, document.createTextNode(" " + words.not_melded)]);
  var saveRack = button("save-rack", words.save_rack);
  var withdraw = button("withdraw", words.withdraw, "small");
  var rackForm = add(el("div", { id: "rack-form" }), [el("label", { "for": "rack" }, words.my_rack), rack, meldLabel, saveRack, withdraw]);
  var youOut = el("p", { id: "you-out" }, words.you_out);
  var racks = el("ul", { id: "racks" });
  var winner = el("select", { id: "winner" });
  winner.appendChild(el("option", { value: "" }, words.no_winner));
  players.forEach(function (name, i) { winner.appendChild(el("option", { value: String(i) }, name)); });
  var winnerPart = add(el("div", { id: "winner-part" }), [el("label", { "for": "winner" }, words.winner), winner]);
  var problem = el("p", { id: "problem", "class": "problem" });
  var confirm = button("confirm", words.confirm, "big");
  var reopen = button("reopen", words.reopen, "small");
  var settle = add(el("section", { id: "settle" }), [
    ended, hint, rackForm, youOut, el("h3", {}, words.racks), racks, winnerPart, problem, confirm, reopen
  ]);
  var done = el("p", { id: "done", "class": "done" });
  var mine = add(el("section", { id: "mine" }), [me, change, game, playing, settle, done]);
  // What the laptop answered, shown under the control that was tapped.
  var message = el("p", { id: "msg", "aria-live": "assertive" });
  add(play, [langs, chooser, mine]);
  play.hidden = true;
  // On a phone the buttons come first; the table's board (seats, games) below them.
  board.parentNode.insertBefore(play, board);

  var state = null;
  var formGame = null;
  var cleared = null;

  function say(control, text, ok) {
    clearTimeout(cleared);
    control.insertAdjacentElement("afterend", message);
    message.textContent = text;
    message.className = text ? (ok ? "ok" : "error") : "";
    if (ok && text) cleared = setTimeout(function () { message.textContent = ""; }, 4000);
  }

  // A control's request is sent once at a time (a double tap is one tap); another control
  // may be tapped meanwhile — the laptop's push often comes before its answer.
  var busy = [];
  function send(action, extra, control) {
    if (busy.indexOf(control) >= 0) return;
    busy.push(control);
    say(control, "", true);
    var request = { key: key, device: device, action: action };
    Object.keys(extra || {}).forEach(function (k) { request[k] = extra[k]; });
    var abort = typeof AbortController === "function" ? new AbortController() : null;
    var timer = setTimeout(function () { if (abort) abort.abort(); }, 15000);
    fetch("/table/" + encodeURIComponent(table) + "/act?lang=" + encodeURIComponent(lang), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
      signal: abort ? abort.signal : undefined
    }).then(function (r) { return r.json(); }).then(function (answer) {
      if (answer.ok && typeof answer.device === "string" && answer.device && answer.device !== device) {
        // The laptop named this phone's token: it replaces the page's own.
        device = answer.device;
        keep(DEVICE, device);
        connect();
      }
      say(control, answer.ok ? (answer.saved ? words.saved : "") : String(answer.message || words.failed), !!answer.ok);
    }).catch(function () {
      say(control, words.failed, false);
    }).then(function () {
      clearTimeout(timer);
      busy.splice(busy.indexOf(control), 1);
    });
  }

  // The game's end takes two taps, so it never ends by accident.
  var armed = null;
  var disarmAt = null;
  function disarm() {
    clearTimeout(disarmAt);
    if (armed) {
      armed.textContent = armed === wentOut ? words.went_out : words.pool_out;
      armed.classList.remove("armed");
    }
    armed = null;
  }
  function endGame(b, outByMe) {
    if (armed === b) {
      disarm();
      send("game_over", { went_out: outByMe }, ending);
      return;
    }
    disarm();
    armed = b;
    b.classList.add("armed");
    b.textContent = fill(words.again, { what: outByMe ? words.went_out : words.pool_out });
    disarmAt = setTimeout(disarm, 5000);
  }
  wentOut.addEventListener("click", function () { endGame(wentOut, true); });
  poolOut.addEventListener("click", function () { endGame(poolOut, false); });

  change.addEventListener("click", function () { send("leave", {}, change); });
  start.addEventListener("click", function () {
    var t = state && state.table;
    send(t && t.turn !== null && !t.running ? "resume" : "start", {}, start);
  });
  pause.addEventListener("click", function () { send("pause", {}, pause); });
  endTurn.addEventListener("click", function () {
    var t = state && state.table;
    // The turn shown: a late or repeated tap ends nothing.
    if (t && t.turn_id !== null) send("end_turn", { turn: t.turn_id }, endTurn);
  });
  saveRack.addEventListener("click", function () {
    send("rack", { rack: rack.value, not_melded: notMelded.checked }, saveRack);
  });
  rack.addEventListener("keydown", function (e) {
    if (e.key === "Enter") { e.preventDefault(); saveRack.click(); }
  });
  withdraw.addEventListener("click", function () { send("withdraw", {}, withdraw); });
  winner.addEventListener("change", function () {
    send("winner", { winner: winner.value === "" ? null : Number(winner.value) }, winner);
  });
  confirm.addEventListener("click", function () {
    var s = state && state.table && state.table.settling;
    // The game and the racks as this page shows them: a change since is refused.
    if (s) send("confirm", { game: s.game, digest: s.digest }, confirm);
  });
  reopen.addEventListener("click", function () { send("reopen", {}, reopen); });

  // While the laptop cannot be reached no clock is shown: its turn may have ended meanwhile.
  function tick() {
    var now = hostNow();
    var lost = !offline.hidden;
    var shown = board.querySelectorAll(".clock[data-ends-at]");
    for (var i = 0; i < shown.length; i++) {
      var rest = Number(shown[i].dataset.endsAt) - now;
      shown[i].textContent = lost ? "" : mmss(rest);
      shown[i].classList.toggle("over", rest <= 0);
    }
    var t = state && state.table;
    if (lost || !t || t.turn === null || t.settling) { clock.textContent = ""; return; }
    var left = t.running ? t.ends_at_ms - now : t.left_ms;
    clock.textContent = left > 0 ? mmss(left) : words.time_up;
    clock.className = left > 0 ? (t.running ? "running" : "paused") : "over";
  }

  function render() {
    var t = state && state.table;
    play.hidden = !t;
    if (!t) return;
    var you = typeof state.you === "number" && state.you < players.length ? state.you : null;
    // Once the table's games are all in, every phone is told so, seated or not.
    var finished = t.finished || t.games_done >= t.games;
    chooser.hidden = you !== null || finished;
    mine.hidden = you === null && !finished;
    var free = 0;
    seats.forEach(function (b, i) {
      var taken = !!(t.held && t.held[i]) && i !== you;
      b.disabled = taken;
      b.classList.toggle("taken", taken);
      if (!taken) free += 1;
    });
    allTaken.hidden = free > 0;
    if (you === null && !finished) { disarm(); return; }
    me.hidden = you === null;
    change.hidden = you === null || finished;
    me.textContent = you === null ? "" : players[you];
    done.textContent = t.finished ? words.recorded : (finished ? words.finished : "");
    game.textContent = finished ? "" : fill(words.game_of, { n: t.games_done + 1, total: t.games });
    var s = finished ? null : t.settling;
    playing.hidden = finished || !!s;
    settle.hidden = !s;
    if (!s) {
      formGame = null;
      if (!finished) {
        var myTurn = t.turn === you;
        turn.textContent = t.turn === null ? words.stopped
          : (!t.running ? words.paused + " · " : "") +
            (myTurn ? words.your_turn : fill(words.turn_of, { name: players[t.turn] }));
        turn.className = myTurn ? "mine" : "";
        endTurn.disabled = !(t.running && (myTurn || t.shared));
        start.hidden = t.running;
        start.textContent = t.turn === null ? words.start : words.resume;
        pause.hidden = !t.running;
      }
    } else {
      disarm();
      if (formGame !== s.game) {
        // Each game's rack field starts empty.
        formGame = s.game;
        rack.value = "";
        notMelded.checked = false;
      }
      ended.textContent = s.went_out !== null && s.went_out !== undefined
        ? fill(words.ended_out, { name: players[s.went_out] })
        : words.ended_pool;
      var out = s.went_out === you;
      rackForm.hidden = out;
      youOut.hidden = !out;
      withdraw.hidden = s.racks[you] === null;
      racks.textContent = "";
      players.forEach(function (name, i) {
        var entered = s.racks[i] !== null;
        var li = el("li", { "data-seat": String(i), "data-confirmed": String(!!s.confirmed[i]) });
        if (i === you) li.className = "me";
        add(li, [
          el("span", { "class": "name" }, name),
          el("span", { "class": "rack" + (entered ? "" : " missing") },
            entered ? (state.racks && state.racks[i]) || s.racks[i] : words.not_entered)
        ]);
        if (s.points) {
          li.appendChild(el("span", { "class": "points" }, fill(words.points, { n: (s.points[i] > 0 ? "+" : "") + s.points[i] })));
        }
        li.appendChild(el("span", { "class": "mark" }, s.confirmed[i] ? words.confirmed : words.to_confirm));
        racks.appendChild(li);
      });
      var missing = s.racks.indexOf(null) >= 0;
      // A winner is named only when the pool ran out and the lowest racks tie.
      winnerPart.hidden = !(s.went_out === null && !missing && (s.winner !== null || !s.points));
      if (document.activeElement !== winner) winner.value = s.winner === null ? "" : String(s.winner);
      confirm.disabled = !!s.confirmed[you] || missing || !!state.problem;
      confirm.textContent = s.confirmed[you] ? words.you_confirmed : words.confirm;
      reopen.hidden = s.confirmed.some(function (c) { return c; });
    }
    problem.textContent = (s && state.problem) || "";
    problem.hidden = !(s && state.problem);
    tick();
  }

  // A page of an earlier round: only "scan your new table", nothing of the new round.
  function gone(html) {
    if (feed) feed.close();
    feed = null;
    state = null;
    play.remove();
    offline.hidden = true;
    board.innerHTML = html;
  }

  function onState(e) {
    var msg;
    try { msg = JSON.parse(e.data); } catch (err) { return; /* the next one replaces it */ }
    offline.hidden = true;
    if (typeof msg.now_ms === "number") offset = msg.now_ms - performance.now();
    if (msg.gone) { gone(msg.html); return; }
    state = msg;
    board.innerHTML = msg.html;
    render();
  }

  var feed = null;
  function connect() {
    if (feed) feed.close();
    feed = new EventSource("/tv/events?lang=" + encodeURIComponent(lang) +
      "&table=" + encodeURIComponent(table) + "&key=" + encodeURIComponent(key) +
      "&device=" + encodeURIComponent(device));
    feed.addEventListener("state", onState);
    feed.addEventListener("error", function () {
      // EventSource reconnects by itself; the page says so meanwhile.
      if (feed) { offline.hidden = false; tick(); }
    });
  }
  connect();
  setInterval(tick, 250);
})();
