// The phone page of rummikub-companion. No build step, no external assets.
// The laptop is the authority: this page shows the last state it pushed (server-sent events),
// counts the clock down locally between pushes, and sends actions; it never decides anything.
// While the feed is down the page says so and shows no clock: a countdown from a state that may
// be stale would be a lie.
//
// The page's words are not here: words.js (made by the laptop from src/i18n/phone.rs, where
// each message has its English and Korean side by side) sets window.RC_WORDS before this runs.
'use strict';

const params = new URLSearchParams(location.search);
const lang = (params.get('lang') || navigator.language || 'en').toLowerCase().startsWith('ko') ? 'ko' : 'en';
const WORDS = (window.RC_WORDS || {})[lang] || {};
document.documentElement.lang = lang;

// A message of words.js, its {name}/{n} placeholders filled from `values`.
function w(key, values) {
  const text = WORDS[key] || key;
  if (!values) return text;
  return text.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

const $ = (id) => document.getElementById(id);
const SEAT_KEY = 'rummikub-companion.seat';
const BEEP_KEY = 'rummikub-companion.beep';
// No event (a state or the laptop's ping every 15 s) for this long: the feed is dead even if
// the phone has not noticed (Wi-Fi roamed, the phone slept).
const SILENCE_MS = 40000;
// How long a message beside a control stays.
const MESSAGE_MS = 6000;

let state = null;        // the last TableState pushed
let receivedAt = 0;      // performance.now() when it arrived
let live = false;        // the feed is up and `state` is current
let heardAt = 0;         // performance.now() of the last event
let seat = loadSeat();   // { seat, name } or null
let pending = false;     // an end-turn is on its way
let confirming = null;   // the taken seat whose "use it here too?" is open
let tickTimer = 0;
let lastShown = { turn: null, remaining: Infinity };
let audio = null;
let wakeLock = null;

// ---------- seat ----------

function loadSeat() {
  const hash = /seat=(\d+)/.exec(location.hash);
  if (hash) return { seat: Number(hash[1]), name: null };
  try {
    const saved = JSON.parse(localStorage.getItem(SEAT_KEY) || 'null');
    if (saved && Number.isInteger(saved.seat)) return saved;
  } catch (_) { /* a broken entry: pick again */ }
  return null;
}

function saveSeat(s) {
  seat = s;
  try {
    if (s) localStorage.setItem(SEAT_KEY, JSON.stringify(s));
    else localStorage.removeItem(SEAT_KEY);
  } catch (_) { /* private mode: remembered for this page only */ }
}

// The players may have been reordered on the laptop: follow the name when it moved.
function mySeat() {
  if (!seat || !state) return null;
  const players = state.players;
  if (seat.name && players[seat.seat] !== seat.name) {
    const moved = players.indexOf(seat.name);
    if (moved >= 0) saveSeat({ seat: moved, name: seat.name });
  }
  if (seat.seat >= players.length) return null;
  if (!seat.name) saveSeat({ seat: seat.seat, name: players[seat.seat] });
  return seat.seat;
}

// Pages open on a seat, this one included when it sits there (the laptop counts them).
function phonesOn(i) {
  return (state && state.phones && state.phones[i]) || 0;
}

// ---------- the clock ----------

function clockNow() {
  if (!state) return { remaining: 0, overtime: 0 };
  let remaining = state.remaining_ms;
  let overtime = state.overtime_ms;
  if (state.phase === 'running') {
    const passed = performance.now() - receivedAt;
    const left = remaining - passed;
    if (left <= 0) {
      overtime += -left;
      remaining = 0;
    } else {
      remaining = left;
    }
  }
  return { remaining, overtime };
}

function fmt(ms) {
  const s = Math.ceil(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function fmtOver(ms) {
  const s = Math.floor(ms / 1000);
  return `+${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

function tick() {
  clearTimeout(tickTimer);
  if (!state || !live) return;
  const me = mySeat();
  const { remaining, overtime } = clockNow();
  const running = state.phase === 'running';
  const idle = state.phase === 'idle';
  const up = !idle && remaining <= 0;
  const warn = !idle && !up && state.warning_ms > 0 && remaining <= state.warning_ms;

  $('clock').textContent = idle ? fmt(state.turn_ms) : up ? fmtOver(overtime) : fmt(remaining);
  document.body.classList.toggle('warn', warn);
  document.body.classList.toggle('up', up);
  const mine = me !== null && state.current === me;
  $('cue').textContent = up
    ? (mine ? w('timeUp') : w('timeUpOther', { name: state.players[state.current] || '' }))
    : warn && mine ? w('warning') : '';

  // Alerts only when the crossing happens while the page watches (not on opening the page).
  if (running && state.turn === lastShown.turn) {
    if (mine && state.warning_ms > 0 && lastShown.remaining > state.warning_ms && remaining <= state.warning_ms && remaining > 0) {
      signal('warning');
    }
    if (mine && lastShown.remaining > 0 && remaining <= 0) signal('timeup');
    speakCrossings(lastShown.remaining, remaining, mine);
  }
  lastShown = { turn: state.turn, remaining };

  if (running) {
    // Wake when the shown second next changes (and at the warning crossing).
    const inSecond = up ? 1000 - (overtime % 1000) : ((remaining - 1) % 1000) + 1;
    tickTimer = setTimeout(tick, Math.max(20, Math.min(1000, inSecond + 5)));
  }
}

// Vibration (where the phone has it; Chrome allows it after the first tap on the page) and
// the optional beep, for the player whose turn it is.
function signal(kind) {
  if (navigator.vibrate) navigator.vibrate(kind === 'warning' ? [200] : [400, 150, 400, 150, 400]);
  if ($('beep').checked) beep(kind === 'warning' ? 1 : 3);
}

function beep(count) {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    for (let i = 0; i < count; i++) {
      const at = audio.currentTime + i * 0.25;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = count > 1 ? 988 : 784;
      gain.gain.setValueAtTime(0.25, at);
      gain.gain.exponentialRampToValueAtTime(0.001, at + 0.18);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.2);
    }
  } catch (_) { /* no audio: the vibration and colours remain */ }
}

// ---------- drawing ----------

function render() {
  $('loading').hidden = !!state;
  if (!state) return;
  const players = state.players;
  const me = mySeat();
  follow(me);
  if (me === null) {
    renderPicker(players);
    return;
  }
  $('pick').hidden = true;
  $('play').hidden = false;

  const current = players[state.current] || '';
  const nextName = players[state.next] || '';
  const mine = state.current === me;
  document.body.className = state.phase + (mine ? ' mine' : '') + (live ? '' : ' offline lost');
  $('me').textContent = w('me', { name: players[me] });
  $('elsewhere').textContent = live && phonesOn(me) > 1 ? w('alsoElsewhere') : '';

  const end = $('end');
  const pause = $('pause');
  end.textContent = mine || !state.anyone_may_end ? w('endMine') : w('endOf', { name: current });
  pause.textContent = state.phase === 'running' ? w('pause') : state.phase === 'paused' ? w('resume') : w('start');
  if (!live) {
    // What the page last heard may be stale: no clock, no buttons, until the laptop answers.
    clearTimeout(tickTimer);
    $('whose').textContent = w('lost');
    $('clock').textContent = '–:––';
    $('cue').textContent = '';
    $('nextline').textContent = w('lostHint');
    end.disabled = true;
    pause.disabled = true;
    $('rack').hidden = true;
    return;
  }
  $('whose').textContent = state.phase === 'idle' ? w('notStarted', { name: current })
    : state.phase === 'paused' ? `${w('paused')} · ${mine ? w('yourTurn') : w('turnOf', { name: current })}`
    : mine ? w('yourTurn') : w('turnOf', { name: current });
  $('nextline').textContent = state.phase === 'idle' ? '' : state.next === me ? w('youNext') : w('next', { name: nextName });

  const mayEnd = state.phase !== 'idle' && state.turn !== null && (mine || state.anyone_may_end);
  end.disabled = !mayEnd || pending;
  pause.disabled = false;

  const form = $('rack');
  form.hidden = !state.entry;
  if (state.entry) {
    const input = $('rack-input');
    if (document.activeElement !== input && !input.dataset.dirty) input.value = state.entry[me] || '';
  }
  tick();
}

// The seat buttons; a seat already on another phone says so, and taking it asks first, right
// under the button that was tapped.
function renderPicker(players) {
  $('play').hidden = true;
  $('pick').hidden = false;
  document.body.className = 'idle' + (live ? '' : ' offline');
  $('pick-title').textContent = players.length ? w('pickTitle') : w('noPlayers');
  if (confirming !== null && (confirming >= players.length || phonesOn(confirming) === 0)) confirming = null;
  const rows = players.map((name, i) => {
    const row = document.createElement('div');
    row.className = 'seatrow';
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'seat';
    b.dataset.seat = String(i);
    const label = document.createElement('span');
    label.textContent = name;
    b.append(label);
    const taken = phonesOn(i) > 0;
    if (taken) {
      b.classList.add('taken');
      const note = document.createElement('span');
      note.className = 'taken-note';
      note.textContent = w('seatTaken');
      b.append(note);
    }
    b.addEventListener('click', () => {
      if (taken && confirming !== i) {
        confirming = i;
        render();
        return;
      }
      takeSeat(i, name);
    });
    row.append(b);
    if (confirming === i) row.append(confirmBox(i, name));
    return row;
  });
  $('seats').replaceChildren(...rows);
}

function confirmBox(i, name) {
  const box = document.createElement('div');
  box.className = 'confirm';
  box.id = 'confirm';
  box.setAttribute('role', 'alert');
  const q = document.createElement('p');
  q.textContent = w('takeSeatQuestion', { name });
  const yes = document.createElement('button');
  yes.type = 'button';
  yes.id = 'confirm-yes';
  yes.textContent = w('takeSeat');
  yes.addEventListener('click', () => takeSeat(i, name));
  const no = document.createElement('button');
  no.type = 'button';
  no.id = 'confirm-no';
  no.className = 'link';
  no.textContent = w('cancel');
  no.addEventListener('click', () => { confirming = null; render(); });
  const buttons = document.createElement('div');
  buttons.className = 'confirmrow';
  buttons.append(yes, no);
  box.append(q, buttons);
  return box;
}

function takeSeat(i, name) {
  confirming = null;
  unlockSpeech(); // this tap is the one a phone needs before it may speak
  saveSeat({ seat: i, name });
  keepAwake();
  render();
}

// A message right below the control that was tapped ('bad': a refusal; 'note': the table
// moved on first; 'ok': done); it fades after a few seconds.
const messageTimers = {};
function say(id, text, kind) {
  const m = $(id);
  if (!m) return;
  m.textContent = text;
  m.className = text ? `tapmsg ${kind || ''}` : 'tapmsg';
  clearTimeout(messageTimers[id]);
  if (text) messageTimers[id] = setTimeout(() => { m.textContent = ''; m.className = 'tapmsg'; }, MESSAGE_MS);
}

// How a refusal is shown: a tap that merely came second is a note, anything else a refusal.
function kindOf(r) {
  return MOVED_ON.includes(r.code) ? 'note' : 'bad';
}

// ---------- talking to the laptop ----------

async function send(action) {
  try {
    // The laptop words a refusal in this page's language.
    const res = await fetch(`action?lang=${lang}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(action),
      cache: 'no-store',
    });
    if (res.ok) return { ok: true };
    let body = {};
    try { body = await res.json(); } catch (_) { /* not JSON */ }
    return { ok: false, code: body.error || 'busy', message: body.message || '' };
  } catch (_) {
    return { ok: false, code: 'network', message: '' };
  }
}

// Why the laptop said no: its own words for the evening's refusals (worded in this page's
// language); the page's words for what the server or the network refused (no link, no JSON).
const PAGE_WORDED = { forbidden: 'errForbidden', bad_request: 'errBadRequest', busy: 'errBusy', network: 'errNetwork' };
function refusalText(r) {
  if (PAGE_WORDED[r.code] || !r.message) return w(PAGE_WORDED[r.code] || 'errBusy');
  return r.message;
}

// A refusal that only says the table moved on first (another tap won): not an error.
const MOVED_ON = ['stale_turn', 'already_started'];

async function endTurn() {
  const me = mySeat();
  if (me === null || !state || !live || state.turn === null || pending) return;
  pending = true;
  say('end-msg', '');
  render();
  const r = await send({ action: 'end_turn', seat: me, turn: state.turn });
  pending = false;
  if (!r.ok) say('end-msg', refusalText(r), kindOf(r));
  if (r.code === 'no_such_seat') saveSeat(null);
  render();
}

async function togglePause() {
  const me = mySeat();
  if (me === null || !state || !live) return;
  say('pause-msg', '');
  // "Start" is what this page showed: if another phone started the clock meanwhile, this tap
  // must not pause it.
  const r = await send({ action: 'toggle_pause', seat: me, start: state.phase === 'idle' });
  if (!r.ok) say('pause-msg', refusalText(r), kindOf(r));
  if (r.code === 'no_such_seat') { saveSeat(null); render(); }
}

async function sendRack(ev) {
  ev.preventDefault();
  const me = mySeat();
  const input = $('rack-input');
  if (me === null) return;
  say('rack-msg', '');
  const r = await send({ action: 'enter_rack', seat: me, text: input.value });
  if (r.ok) {
    delete input.dataset.dirty;
    input.blur();
    say('rack-msg', w('sent'), 'ok');
  } else {
    say('rack-msg', refusalText(r), 'bad');
  }
}

// Server-sent events with our own backoff (1, 2, 4 … 15 s), so a Wi-Fi blip heals by itself
// and the page says clearly while it is cut off. The stream names this page's seat, so the
// laptop can tell the other phones that seat is taken.
let source = null;
let streamSeat = null;
let backoff = 1;
let retryTimer = 0;

function connect() {
  clearTimeout(retryTimer);
  if (source) source.close();
  streamSeat = state ? mySeat() : (seat ? seat.seat : null);
  source = new EventSource(streamSeat === null ? 'events' : `events?seat=${streamSeat}`);
  source.addEventListener('open', () => {
    backoff = 1;
    heardAt = performance.now();
  });
  source.addEventListener('state', (ev) => {
    try {
      const before = state;
      state = JSON.parse(ev.data);
      speakChanges(before, state);
      receivedAt = performance.now();
      heardAt = receivedAt;
      live = true;
      $('conn').hidden = true;
      render();
    } catch (_) { /* ignore a broken message; the next one heals */ }
  });
  source.addEventListener('ping', () => { heardAt = performance.now(); });
  source.addEventListener('error', lost);
}

// The page's seat changed (picked, changed, or moved on the laptop): the stream follows.
function follow(me) {
  if (source && live && me !== streamSeat) connect();
}

function lost() {
  if (source) source.close();
  source = null;
  live = false;
  render();
  disconnected();
}

async function disconnected() {
  const banner = $('conn');
  banner.hidden = false;
  banner.textContent = w('disconnected');
  document.body.classList.add('offline');
  // A 403 means the link is dead (the laptop made a new link): say so, stop retrying.
  try {
    const res = await fetch('state', { cache: 'no-store' });
    if (res.status === 403) {
      banner.textContent = w('offline');
      return;
    }
  } catch (_) { /* still cut off */ }
  const wait = backoff;
  backoff = Math.min(backoff * 2, 15);
  banner.textContent = w('reconnectIn', { n: wait });
  clearTimeout(retryTimer);
  retryTimer = setTimeout(connect, wait * 1000);
}

// A feed that has gone silent is dead, whatever the browser thinks.
function watchSilence() {
  if (source && heardAt && performance.now() - heardAt > SILENCE_MS) lost();
}
setInterval(watchSilence, 5000);

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'visible') return;
  watchSilence();
  if (!source) { backoff = 1; connect(); }
  keepAwake();
  tick();
});

// ---------- speech ----------
// The phone says what happens in its page's language with the phone's own voice (the browser's
// speechSynthesis): by default only to its player ("Ann, your turn", their warning and
// time-up); with "every event" on, every turn, alert, pause and resume at the table. Both
// switches are kept in localStorage. A new turn cuts off words still being said.

const SPEAK_KEY = 'rummikub-companion.speak';
const SPEAK_ALL_KEY = 'rummikub-companion.speakAll';
// The beep plays first, then the words (its length: one or three 0.25 s bursts).
const AFTER_BEEP_MS = { warning: 300, timeup: 800 };

function canSpeak() {
  return 'speechSynthesis' in window && typeof window.SpeechSynthesisUtterance === 'function';
}

function speakingAll() {
  return $('speak').checked && $('speak-all').checked;
}

// How seat i's name is said: its spoken form from the laptop, else its written name.
function spokenName(i) {
  if (!state) return '';
  return (state.spoken && state.spoken[i]) || state.players[i] || '';
}

// Words in the page's language.
function utterance(text) {
  const u = new SpeechSynthesisUtterance(text);
  u.lang = lang === 'ko' ? 'ko-KR' : 'en-US';
  return u;
}

function speak(text, cutOff) {
  if (!text || !canSpeak() || !$('speak').checked) return;
  try {
    if (cutOff) speechSynthesis.cancel();
    speechSynthesis.speak(utterance(text));
  } catch (_) { /* no voice: the screen and the vibration remain */ }
}

// Phones (iOS) speak only after a tap has spoken once: joining the seat is that tap.
function unlockSpeech() {
  if (!canSpeak() || !$('speak').checked) return;
  try { speechSynthesis.speak(utterance('')); } catch (_) { /* no voice */ }
}

// A pushed state after `before`: a new turn, a pause, a resume.
function speakChanges(before, after) {
  if (!before || !after || after.phase === 'idle' || after.turn === null) return;
  const me = mySeat();
  const mine = me !== null && after.current === me;
  if (after.turn !== before.turn) {
    const name = spokenName(after.current);
    if (mine) speak(w('sayYourTurn', { name }), true);
    else if (speakingAll()) speak(w('sayTurnOf', { name }), true);
    return;
  }
  if (!speakingAll()) return;
  if (before.phase === 'running' && after.phase === 'paused') speak(w('sayPaused'));
  if (before.phase === 'paused' && after.phase === 'running') speak(w('sayResumed'));
}

// The countdown crossed the warning or zero (seen by tick()): said after the beep.
function speakCrossings(was, now, mine) {
  if (!mine && !speakingAll()) return;
  let kind = null;
  if (state.warning_ms > 0 && was > state.warning_ms && now <= state.warning_ms && now > 0) kind = 'warning';
  if (was > 0 && now <= 0) kind = 'timeup';
  if (!kind) return;
  const text = kind === 'warning' ? w('sayWarning', { n: Math.round(state.warning_ms / 1000) })
    : state.chess_clock ? w('sayFlag', { name: spokenName(state.current) })
    : w('sayTimeUp');
  const wait = mine && $('beep').checked ? AFTER_BEEP_MS[kind] : 0;
  setTimeout(() => speak(text), wait);
}

function initSpeech() {
  $('speak-label').textContent = w('speakLabel');
  $('speak-all-label').textContent = w('speakAllLabel');
  try {
    $('speak').checked = localStorage.getItem(SPEAK_KEY) !== '0';
    $('speak-all').checked = localStorage.getItem(SPEAK_ALL_KEY) === '1';
  } catch (_) { /* defaults: my turn only */ }
  const keep = (key, box) => () => {
    try { localStorage.setItem(key, $(box).checked ? '1' : '0'); } catch (_) { /* this page only */ }
  };
  $('speak').addEventListener('change', keep(SPEAK_KEY, 'speak'));
  $('speak-all').addEventListener('change', keep(SPEAK_ALL_KEY, 'speak-all'));
  if (!canSpeak()) {
    $('speak').disabled = true;
    $('speak-all').disabled = true;
  }
}

// ---------- keep the screen on ----------

async function keepAwake() {
  if (!('wakeLock' in navigator)) {
    $('awake').textContent = w('noWakeLock');
    return;
  }
  if (wakeLock && !wakeLock.released) return;
  try {
    wakeLock = await navigator.wakeLock.request('screen');
  } catch (_) { /* refused (battery saver, hidden page): try again on the next visit */ }
}

// ---------- start ----------

function init() {
  $('change').textContent = w('change');
  $('rack-label').textContent = w('rackLabel');
  $('rack-hint').textContent = w('rackHint');
  $('rack-send').textContent = w('send');
  $('beep-label').textContent = w('beep');
  initSpeech();
  $('conn').textContent = w('disconnected');
  $('loading').textContent = w('connecting');
  try { $('beep').checked = localStorage.getItem(BEEP_KEY) === '1'; } catch (_) { /* default off */ }
  $('beep').addEventListener('change', () => {
    try { localStorage.setItem(BEEP_KEY, $('beep').checked ? '1' : '0'); } catch (_) { /* ok */ }
    if ($('beep').checked) beep(1); // also unlocks audio on iOS, which needs a tap
  });
  $('change').addEventListener('click', () => { saveSeat(null); render(); });
  $('end').addEventListener('click', endTurn);
  $('pause').addEventListener('click', togglePause);
  $('rack').addEventListener('submit', sendRack);
  $('rack-input').addEventListener('input', (ev) => { ev.target.dataset.dirty = '1'; });
  document.addEventListener('click', keepAwake, { once: true });
  keepAwake();
  connect();
}

init();
