// The phone page of rummikub-companion. No build step, no external assets.
// The laptop is the authority: this page shows the last state it pushed (server-sent events),
// counts the clock down locally between pushes, and sends actions; it never decides anything.
'use strict';

const TEXT = {
  en: {
    pickTitle: 'Which seat is yours?',
    change: 'Change seat',
    you: 'You',
    yourTurn: 'Your turn',
    turnOf: (n) => `${n}'s turn`,
    notStarted: (n) => `Not started · ${n} starts`,
    paused: 'Paused',
    next: (n) => `Next: ${n}`,
    youNext: 'You are next',
    endMine: 'End my turn',
    endOf: (n) => `End ${n}'s turn`,
    pause: 'Pause',
    resume: 'Resume',
    start: 'Start',
    warning: 'Hurry up!',
    timeUp: "Time's up! Draw a tile and end your turn.",
    timeUpOther: (n) => `${n}'s time is up`,
    rackLabel: 'Your remaining tiles (a number or tiles)',
    rackHint: 'e.g. 17, or R5 K7 J · 0 if you went out',
    send: 'Send',
    sent: 'Sent to the laptop',
    beep: 'Beep',
    noWakeLock: 'Tip: set a long screen timeout (keep-awake needs https).',
    disconnected: 'Disconnected from the laptop · reconnecting…',
    reconnectIn: (s) => `Disconnected from the laptop · retrying in ${s} s`,
    offline: 'This link no longer works. Scan the new QR code on the laptop.',
    noPlayers: 'No players yet: set them up on the laptop.',
    errors: {
      not_your_turn: 'It is not your turn.',
      stale_turn: 'That turn has already ended.',
      no_such_seat: 'This seat no longer exists: pick your seat again.',
      not_started: 'The timer has not been started.',
      no_sheet: 'No game is being entered on the laptop.',
      bad_rack: 'Not a number or tiles:',
      rejected: 'The laptop said no:',
      busy: 'The laptop is busy, try again.',
      bad_request: 'The laptop did not understand.',
      forbidden: 'This link no longer works.',
      network: 'Not sent: no connection.',
    },
  },
  ko: {
    pickTitle: '내 자리를 고르세요',
    change: '자리 바꾸기',
    you: '나',
    yourTurn: '내 차례',
    turnOf: (n) => `${n} 차례`,
    notStarted: (n) => `시작 전 · ${n} 먼저`,
    paused: '일시정지',
    next: (n) => `다음: ${n}`,
    youNext: '다음은 내 차례',
    endMine: '내 차례 끝내기',
    endOf: (n) => `${n} 차례 끝내기`,
    pause: '일시정지',
    resume: '계속',
    start: '시작',
    warning: '서두르세요!',
    timeUp: '시간 끝! 타일 한 장을 가져가고 차례를 끝내세요.',
    timeUpOther: (n) => `${n}의 시간이 끝났습니다`,
    rackLabel: '내 남은 타일 (숫자 또는 타일)',
    rackHint: '예: 17 또는 R5 K7 J · 다 냈으면 0',
    send: '보내기',
    sent: '노트북에 보냈습니다',
    beep: '알림음',
    noWakeLock: '팁: 화면 꺼짐 시간을 길게 하세요 (화면 유지는 https 필요).',
    disconnected: '노트북과 연결이 끊겼습니다 · 다시 연결 중…',
    reconnectIn: (s) => `노트북과 연결이 끊겼습니다 · ${s}초 후 다시 시도`,
    offline: '이 링크는 더 이상 쓸 수 없습니다. 노트북의 새 QR 코드를 스캔하세요.',
    noPlayers: '아직 플레이어가 없습니다: 노트북에서 정하세요.',
    errors: {
      not_your_turn: '내 차례가 아닙니다.',
      stale_turn: '그 차례는 이미 끝났습니다.',
      no_such_seat: '이 자리는 없어졌습니다: 자리를 다시 고르세요.',
      not_started: '타이머가 시작되지 않았습니다.',
      no_sheet: '노트북에서 판 점수를 입력하고 있지 않습니다.',
      bad_rack: '숫자나 타일이 아닙니다:',
      rejected: '노트북이 거절했습니다:',
      busy: '노트북이 바쁩니다. 다시 해 보세요.',
      bad_request: '노트북이 이해하지 못했습니다.',
      forbidden: '이 링크는 더 이상 쓸 수 없습니다.',
      network: '보내지 못했습니다: 연결 없음.',
    },
  },
};

const params = new URLSearchParams(location.search);
const lang = (params.get('lang') || navigator.language || 'en').toLowerCase().startsWith('ko') ? 'ko' : 'en';
const t = TEXT[lang];
document.documentElement.lang = lang;

const $ = (id) => document.getElementById(id);
const SEAT_KEY = 'rummikub-companion.seat';
const BEEP_KEY = 'rummikub-companion.beep';

let state = null;        // the last TableState pushed
let receivedAt = 0;      // performance.now() when it arrived
let seat = loadSeat();   // { seat, name } or null
let pending = false;     // an end-turn is on its way
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
  if (!state) return;
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
    ? (mine ? t.timeUp : t.timeUpOther(state.players[state.current] || ''))
    : warn && mine ? t.warning : '';

  // Alerts only when the crossing happens while the page watches (not on opening the page).
  if (running && state.turn === lastShown.turn) {
    if (mine && state.warning_ms > 0 && lastShown.remaining > state.warning_ms && remaining <= state.warning_ms && remaining > 0) {
      signal('warning');
    }
    if (mine && lastShown.remaining > 0 && remaining <= 0) signal('timeup');
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
  if (me === null) {
    $('play').hidden = true;
    $('pick').hidden = false;
    $('pick-title').textContent = players.length ? t.pickTitle : t.noPlayers;
    const box = $('seats');
    box.replaceChildren(...players.map((name, i) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'seat';
      b.textContent = name;
      b.dataset.seat = String(i);
      b.addEventListener('click', () => {
        saveSeat({ seat: i, name });
        keepAwake();
        render();
      });
      return b;
    }));
    return;
  }
  $('pick').hidden = true;
  $('play').hidden = false;

  const current = players[state.current] || '';
  const nextName = players[state.next] || '';
  const mine = state.current === me;
  document.body.className = state.phase + (mine ? ' mine' : '');
  $('me').textContent = `${t.you}: ${players[me]}`;
  $('whose').textContent = state.phase === 'idle' ? t.notStarted(current)
    : state.phase === 'paused' ? `${t.paused} · ${mine ? t.yourTurn : t.turnOf(current)}`
    : mine ? t.yourTurn : t.turnOf(current);
  $('nextline').textContent = state.phase === 'idle' ? '' : state.next === me ? t.youNext : t.next(nextName);

  const end = $('end');
  const mayEnd = state.phase !== 'idle' && state.turn !== null && (mine || state.anyone_may_end);
  end.disabled = !mayEnd || pending;
  end.textContent = mine || !state.anyone_may_end ? t.endMine : t.endOf(current);
  $('pause').textContent = state.phase === 'running' ? t.pause : state.phase === 'paused' ? t.resume : t.start;

  const form = $('rack');
  form.hidden = !state.entry;
  if (state.entry) {
    const input = $('rack-input');
    if (document.activeElement !== input && !input.dataset.dirty) input.value = state.entry[me] || '';
  }
  tick();
}

function say(text, bad) {
  const m = $('msg');
  m.textContent = text;
  m.className = bad ? 'msg bad' : 'msg';
  clearTimeout(say.timer);
  if (text) say.timer = setTimeout(() => { m.textContent = ''; }, 4000);
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
const PAGE_WORDED = ['forbidden', 'bad_request', 'busy', 'network'];
function refusalText(r) {
  if (PAGE_WORDED.includes(r.code) || !r.message) return t.errors[r.code] || t.errors.busy;
  return r.message;
}

async function endTurn() {
  const me = mySeat();
  if (me === null || !state || state.turn === null || pending) return;
  pending = true;
  render();
  const r = await send({ action: 'end_turn', seat: me, turn: state.turn });
  pending = false;
  if (!r.ok) say(refusalText(r), r.code !== 'stale_turn');
  if (r.code === 'no_such_seat') saveSeat(null);
  render();
}

async function togglePause() {
  const me = mySeat();
  if (me === null) return;
  const r = await send({ action: 'toggle_pause', seat: me });
  if (!r.ok) say(refusalText(r), true);
}

async function sendRack(ev) {
  ev.preventDefault();
  const me = mySeat();
  const input = $('rack-input');
  if (me === null) return;
  const r = await send({ action: 'enter_rack', seat: me, text: input.value });
  if (r.ok) {
    delete input.dataset.dirty;
    input.blur();
    $('rack-msg').textContent = t.sent;
    $('rack-msg').className = 'rackmsg ok';
  } else {
    $('rack-msg').textContent = refusalText(r);
    $('rack-msg').className = 'rackmsg bad';
  }
}

// Server-sent events with our own backoff (1, 2, 4 … 15 s), so a Wi-Fi blip heals by itself
// and the page says clearly while it is cut off.
let source = null;
let backoff = 1;
let retryTimer = 0;

function connect() {
  clearTimeout(retryTimer);
  if (source) source.close();
  source = new EventSource('events');
  source.addEventListener('open', () => {
    backoff = 1;
    $('conn').hidden = true;
    document.body.classList.remove('offline');
  });
  source.addEventListener('state', (ev) => {
    try {
      state = JSON.parse(ev.data);
      receivedAt = performance.now();
      render();
    } catch (_) { /* ignore a broken message; the next one heals */ }
  });
  source.addEventListener('error', () => {
    source.close();
    source = null;
    disconnected();
  });
}

async function disconnected() {
  const banner = $('conn');
  banner.hidden = false;
  document.body.classList.add('offline');
  // A 403 means the link is dead (the laptop started a new evening): say so, stop retrying.
  try {
    const res = await fetch('state', { cache: 'no-store' });
    if (res.status === 403) {
      banner.textContent = t.offline;
      return;
    }
  } catch (_) { /* still cut off */ }
  const wait = backoff;
  backoff = Math.min(backoff * 2, 15);
  banner.textContent = t.reconnectIn(wait);
  retryTimer = setTimeout(connect, wait * 1000);
}

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'visible') return;
  if (!source) { backoff = 1; connect(); }
  keepAwake();
  tick();
});

// ---------- keep the screen on ----------

async function keepAwake() {
  if (!('wakeLock' in navigator)) {
    $('awake').textContent = t.noWakeLock;
    return;
  }
  if (wakeLock && !wakeLock.released) return;
  try {
    wakeLock = await navigator.wakeLock.request('screen');
  } catch (_) { /* refused (battery saver, hidden page): try again on the next visit */ }
}

// ---------- start ----------

function init() {
  $('change').textContent = t.change;
  $('rack-label').textContent = t.rackLabel;
  $('rack-hint').textContent = t.rackHint;
  $('rack-send').textContent = t.send;
  $('beep-label').textContent = t.beep;
  $('conn').textContent = t.disconnected;
  $('loading').textContent = t.disconnected.split('·')[1] || '…';
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
