#!/usr/bin/python3
"""The real-window driver of rummikub-companion's tests (tests/window/*.py).

It drives the built app binary the way a person would, with nothing changed in the app: it
READS the window through AT-SPI (eframe's `accesskit` feature puts the egui widget tree on the
accessibility bus) and ACTS with xdotool (pointer to a widget's centre, clicks, typing, key
presses and holds with the X server's own autorepeat). ImageMagick `import` takes screenshots.

WHAT IT STARTS. A `Session` starts, in this order, and on exit stops by PID in reverse order
(SIGTERM, then SIGKILL after 5 s), with every log and socket in one private 0700 temp folder:
  1. Xvfb :N -screen 0 1280x900x24 -nolisten tcp -noreset   (N a random free display number;
     -noreset keeps the server, and `xset` settings, when the app is its last client)
  2. dbus-daemon --session: a private session bus
  3. /usr/libexec/at-spi-bus-launcher --launch-immediately --a11y=1: owns org.a11y.Bus and sets
     org.a11y.Status.IsEnabled, which switches accesskit's bridge on; it starts the
     accessibility bus (a second dbus-daemon, its child, tracked by PID)
  4. /usr/libexec/at-spi2-registryd, before any AT-SPI call (else the bus activates its own)
  5. openbox, only with wm=True (needed to minimise, restore or go full screen)
  6. the app: RUMMIKUB_COMPANION_DATA=<data_dir> LANG=<lang> <binary>, with LANGUAGE, LC_ALL and
     LC_MESSAGES removed (the app's locale lookup reads them first) and XDG_DATA_HOME,
     XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_RUNTIME_DIR private (eframe's window-state file stays
     in the session; the window opens at its default size). `env` adds variables for the app.
Services a bus activated on its own, and anything the app spawned, are found as the daemons'
or the app's child processes and stopped by PID too. RC_DRIVER_KEEP_TMP=1 keeps the temp folder
(one log per process: app-1.log, app-2.log after a restart, xvfb.log, ...); RC_DRIVER_VERBOSE=1
logs every process started and stopped to stderr. The binary defaults to RC_DRIVER_BINARY, else
target/release/rummikub-companion of this checkout.

The driver's own libatspi (Debian's /usr/bin/python3 + python3-gi + gir1.2-atspi-2.0; a pyenv
python cannot import them) is pointed at that display and bus through os.environ, finds the app
on the AT-SPI desktop by its PID, and reads with the client cache off, so every read is fresh.
Without a window manager it gives the window the X input focus (`xdotool windowfocus`): under
the default PointerRoot focus winit drops key events.

WHAT IT CAN READ (eframe 0.37 / accesskit_unix, observed): tabs (toggle buttons, the selected
one `pressed`), buttons by their text, hover texts as descriptions, plain-text labels, text
fields (`entry`) with their text and `focused` state, named by their label where the app links
them, check boxes, sliders and spin buttons with their value. Grid cells are flat labels with
no table roles: rows are rebuilt from the boxes (`row_values`, `grid`); an empty cell has no
node. The clock's digits are painted, but the app names the clock area "<state> <m:ss>"
(`clock()`); overtime is not in the tree. Not readable: colours, anything only painted,
tooltips unless shown. Boxes come window-relative from AT-SPI and are offset by the window's
position from `xwininfo` (right also under openbox, where `xdotool getwindowgeometry` is off
by the title bar). Boxes are not clipped: `click` refuses a widget entirely outside the window.

HOW IT ACTS. `click` moves the pointer onto the middle of the widget's visible part and clicks
there (`repeat=2`: a double click); it skips the move when the pointer is there already
(`xdotool mousemove --sync` to where the pointer is waits 15 s for a motion that never comes).
`minimise`/`restore` use xdotool's windowminimize and windowactivate through openbox; `restore`
waits until the window is mapped and stays put (openbox animates it in from its icon for
~0.2 s, and a click during that misses).

LIMITS. One Session per Python process: libatspi keeps its first bus connection and cannot
reconnect to another bus, so a second Session raises (run it in a new process). For the same
reason the buses outlive the app: `kill_app()` + `restart_app()` start a new app process on the
same data folder, display and buses. Reads follow egui frames, so every read that looks for
something polls (`find`, `wait_until`, `field_near`, `row_values`, ...; 5 s by default) and
fails with what it looked for and the labels it saw; a tree read takes ~0.1-0.2 s. Xvfb has no
audio device and no desktop portal or save dialog. Key holds go through the X server's
autorepeat (on by default in Xvfb: 660 ms delay, 25/s); `set_autorepeat(False)` gives one
press. Only the window's client area is read and clicked, never the window manager's frame.

    import sys, os; sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import driver
    with driver.Session(data_dir, binary=binary) as s:
        s.click("tab", "Score sheet"); s.click("button", "New sheet")
        s.type_into(s.field_near("Player 2"), "12"); s.key("Return")
        print(s.row_values("Total"), driver.clock(s))
"""

from __future__ import annotations

import dataclasses
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import warnings
from typing import Callable, Optional

try:
    import gi
except ImportError as e:  # pragma: no cover - depends on the interpreter
    raise ImportError("driver.py needs Debian's python3-gi and gir1.2-atspi-2.0: run it with "
                      f"/usr/bin/python3, not {sys.executable}") from e

warnings.filterwarnings("ignore", category=DeprecationWarning)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_BINARY = os.environ.get(
    "RC_DRIVER_BINARY",
    os.path.normpath(os.path.join(HERE, "..", "..", "target", "release", "rummikub-companion")))
BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
REGISTRYD = "/usr/libexec/at-spi2-registryd"
SCREEN = "1280x900x24"

# Friendly role names -> AT-SPI role names; any other role is matched as given.
ROLES = {
    "button": {"push button", "toggle button"},
    "tab": {"page tab", "toggle button", "radio button"},
    "field": {"entry", "text", "password text", "spin button"},
    "entry": {"entry", "text", "password text"},
    "label": {"label", "static", "heading"},
    "checkbox": {"check box"},
    "radio": {"radio button"},
    "slider": {"slider", "spin button"},
}


class DriverError(RuntimeError):
    """Something the driver could not do: a widget not found, a process that did not start."""


class AppExited(DriverError):
    """The app is gone (crashed, killed or quit): no point in waiting any longer."""


@dataclasses.dataclass
class Node:
    """One accessible widget, read in one go. The box is in screen pixels (-1 when none)."""

    role: str
    name: str
    text: Optional[str]
    description: str
    states: tuple
    x: int
    y: int
    w: int
    h: int
    depth: int
    path: tuple
    value: Optional[float] = None
    acc: object = dataclasses.field(repr=False, compare=False, default=None)

    @property
    def label(self) -> str:
        """What a person reads: the accessible name, else the text."""
        return self.name or (self.text or "")

    @property
    def has_box(self) -> bool:
        return self.w > 0 and self.h > 0

    @property
    def center(self) -> tuple:
        return (self.x + self.w // 2, self.y + self.h // 2)

    @property
    def enabled(self) -> bool:
        return "enabled" in self.states or "sensitive" in self.states

    def clipped(self, x0: int, y0: int, x1: int, y1: int) -> Optional[tuple]:
        """The part of the box inside (x0,y0)-(x1,y1) as (x, y, w, h), or None."""
        left, top = max(self.x, x0), max(self.y, y0)
        right, bottom = min(self.x + self.w, x1), min(self.y + self.h, y1)
        return (left, top, right - left, bottom - top) if right > left and bottom > top else None

    def line(self) -> str:
        box = f"({self.x},{self.y} {self.w}x{self.h})" if self.has_box else "(no box)"
        extra = [f"text={self.text!r}"] if self.text is not None and self.text != self.name else []
        if self.value is not None:
            extra.append(f"value={self.value:g}")
        if self.description:
            extra.append(f"desc={self.description!r}")
        flags = [s for s in self.states if s in ("focused", "checked", "pressed", "selected")]
        if not self.enabled and self.role not in ("frame", "panel", "label", "application"):
            flags.append("disabled")
        if flags:
            extra.append("[" + ",".join(flags) + "]")
        return f"{'  ' * self.depth}{self.role} {self.name!r} {box} {' '.join(extra)}".rstrip()


def _poll(fn: Callable[[], object], timeout: float, what: str, interval: float = 0.15,
          seen: Optional[Callable[[], str]] = None):
    """Calls fn until it returns something truthy; raises DriverError naming `what` (and, with
    `seen`, what was there instead) after `timeout` seconds. AppExited is raised at once."""
    deadline = time.monotonic() + timeout
    last = None
    while True:
        try:
            value = fn()
            if value:
                return value
        except AppExited:
            raise
        except Exception as e:  # noqa: BLE001 - keep polling, report the last error
            last = e
        if time.monotonic() >= deadline:
            break
        time.sleep(interval)
    msg = f"timed out after {timeout:g} s waiting for {what}"
    if last is not None:
        msg += f" (last error: {last})"
    if seen is not None:
        try:
            msg += "\n" + seen()
        except AppExited:
            raise
        except Exception as e:  # noqa: BLE001
            msg += f"\n(could not read the window: {e})"
    raise DriverError(msg)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except (OSError, IndexError):
        return False


def _descendants(pid: int) -> list:
    """Every process below `pid`, children before grandchildren (from /proc)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop(0)
        for task in os.listdir(f"/proc/{p}/task") if os.path.isdir(f"/proc/{p}/task") else ():
            try:
                with open(f"/proc/{p}/task/{task}/children") as f:
                    kids = [int(k) for k in f.read().split()]
            except OSError:
                continue
            out += [k for k in kids if k not in out]
            todo += kids
    return out


def _terminate(pid: int, timeout: float = 5.0) -> None:
    """SIGTERM, then SIGKILL if still alive after `timeout` s. Never a process group."""
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, 2.0)):
        if not _alive(pid):
            return
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + wait
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)


_STARTED = False  # libatspi connects once per process (see LIMITS)


class Session:
    """Xvfb + private buses + AT-SPI + the app, and the means to drive the app."""

    def __init__(self, data_dir: str, lang: str = "en_US.UTF-8", binary: str = DEFAULT_BINARY,
                 env: Optional[dict] = None, wm: bool = False, timeout: float = 40.0):
        self.data_dir = os.path.abspath(data_dir)
        self.lang = lang
        self.binary = os.path.abspath(binary)
        self.app_env = dict(env or {})
        self.wm = wm
        self.timeout = timeout
        self.verbose = bool(os.environ.get("RC_DRIVER_VERBOSE"))
        self.tmp: Optional[str] = None
        self.display: Optional[str] = None
        self.env: dict = {}            # environment of everything started (the app adds its own)
        self.app: Optional[subprocess.Popen] = None
        self.app_runs = 0              # 1 for the first app process, 2 after one restart, ...
        self.window_size = (0, 0)
        self._procs: list = []         # (name, Popen) in start order, except the app
        self._pids: dict = {}          # name -> pid of processes started by our children
        self._Atspi = None
        self._frame = None
        self._wid: Optional[str] = None
        self._origin = (0, 0)
        self._t0 = time.monotonic()

    # ------------------------------------------------------------------ starting and stopping
    def __enter__(self) -> "Session":
        global _STARTED
        if _STARTED:
            raise DriverError("one Session per process: libatspi keeps its connection to the first "
                              "session's bus; start the next session in a new process")
        for tool in ("Xvfb", "dbus-daemon", "dbus-send", "xdotool", "xwininfo", "import"):
            if not shutil.which(tool):
                raise DriverError(f"{tool} not found (apt-get install -y xvfb dbus xdotool "
                                  "x11-utils imagemagick)")
        for path in (BUS_LAUNCHER, REGISTRYD):
            if not os.path.exists(path):
                raise DriverError(f"{path} not found (apt-get install -y at-spi2-core)")
        if not os.access(self.binary, os.X_OK):
            raise DriverError(f"the app binary {self.binary} is not there")
        if self.wm and not shutil.which("openbox"):
            raise DriverError("openbox not found (apt-get install -y openbox)")
        _STARTED = True
        os.makedirs(self.data_dir, exist_ok=True)
        self.tmp = tempfile.mkdtemp(prefix="rc-driver-")
        os.chmod(self.tmp, 0o700)
        try:
            self._start_display()
            self._start_buses()
            if self.wm:
                self._spawn("openbox", ["openbox"])
                _poll(self._wm_running, 10, "openbox to manage the screen")
            self._start_app()
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> None:
        """Stops the app, then everything else in reverse start order, each by PID."""
        self._stop_app(timeout=10)
        for name, p in reversed(self._procs):
            extra = [pid for pid in _descendants(p.pid) if pid not in self._pids.values()]
            self._log(f"stopping {name} pid {p.pid}")
            _terminate(p.pid)
            try:
                p.wait(5)  # reap it
            except subprocess.TimeoutExpired:
                pass
            for pid in extra:  # e.g. a service the bus activated
                _terminate(pid)
            for child, pid in list(self._pids.items()):
                if child.startswith(name + "/"):
                    self._log(f"stopping {child} pid {pid}")
                    _terminate(pid)
            if p.stdout:
                p.stdout.close()
        self._procs.clear()
        self._pids.clear()
        if self.tmp and not os.environ.get("RC_DRIVER_KEEP_TMP"):
            shutil.rmtree(self.tmp, ignore_errors=True)
        elif self.tmp:
            print(f"[driver] kept {self.tmp}", file=sys.stderr)

    def _log(self, msg: str) -> None:
        if self.verbose:
            print(f"[driver {time.monotonic() - self._t0:6.2f}s] {msg}", file=sys.stderr,
                  flush=True)

    def _spawn(self, name: str, argv: list, env: Optional[dict] = None, log: Optional[str] = None,
               stdout=None) -> subprocess.Popen:
        with open(os.path.join(self.tmp, log or f"{name}.log"), "wb") as f:
            p = subprocess.Popen(argv, env=env or self.env, stdin=subprocess.DEVNULL,
                                 stdout=stdout or f, stderr=f)
        self._log(f"started {name} pid {p.pid}: {' '.join(argv)}")
        if name != "app":
            self._procs.append((name, p))
        return p

    def _run(self, *argv: str, timeout: float = 15) -> subprocess.CompletedProcess:
        return subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=timeout)

    def _start_display(self) -> None:
        env = {k: v for k, v in os.environ.items()}
        for _ in range(8):
            n = random.randint(100, 899)
            if os.path.exists(f"/tmp/.X{n}-lock") or os.path.exists(f"/tmp/.X11-unix/X{n}"):
                continue
            p = self._spawn("xvfb", ["Xvfb", f":{n}", "-screen", "0", SCREEN, "-nolisten", "tcp",
                                     "-noreset"], env=env)
            sock = f"/tmp/.X11-unix/X{n}"
            try:
                _poll(lambda: p.poll() is not None or os.path.exists(sock), 10, "the X socket")
            except DriverError:
                pass
            if p.poll() is None and os.path.exists(sock):
                self.display = f":{n}"
                return
            self._procs.remove(("xvfb", p))
            _terminate(p.pid)  # lost a race for that display: try another number
        raise DriverError("Xvfb did not start; see its log in " + self.tmp)

    def _start_buses(self) -> None:
        run = os.path.join(self.tmp, "run")
        os.makedirs(run, mode=0o700)
        drop = ("DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS", "WAYLAND_DISPLAY", "LANGUAGE",
                "LC_ALL", "LC_MESSAGES", "NO_AT_BRIDGE", "XAUTHORITY")
        self.env = {k: v for k, v in os.environ.items() if k not in drop}
        self.env.update({
            "DISPLAY": self.display,
            "XDG_RUNTIME_DIR": run,  # the a11y bus socket goes to $XDG_RUNTIME_DIR/at-spi/
            "XDG_DATA_HOME": os.path.join(self.tmp, "xdg-data"),  # eframe's app.ron
            "XDG_CONFIG_HOME": os.path.join(self.tmp, "xdg-config"),
            "XDG_CACHE_HOME": os.path.join(self.tmp, "xdg-cache"),
            "XDG_SESSION_TYPE": "x11",
        })
        _poll(lambda: self._run("xdotool", "getdisplaygeometry").returncode == 0, 10,
              f"the X display {self.display} to answer")

        p = self._spawn("dbus-session", ["dbus-daemon", "--session", "--nofork",
                                         "--print-address=1"], stdout=subprocess.PIPE)
        if not select.select([p.stdout], [], [], 10)[0]:
            raise DriverError("the session dbus-daemon printed no address")
        address = p.stdout.readline().decode().strip()
        if not address:
            raise DriverError("the session dbus-daemon printed no address")
        self.env["DBUS_SESSION_BUS_ADDRESS"] = address

        launcher = self._spawn("at-spi-bus-launcher",
                               [BUS_LAUNCHER, "--launch-immediately", "--a11y=1"])
        a11y = _poll(self._a11y_address, 15, "org.a11y.Bus.GetAddress on the session bus")
        enabled = self._dbus_send(address, "org.a11y.Bus", "/org/a11y/bus",
                                  "org.freedesktop.DBus.Properties.Get", "string:org.a11y.Status",
                                  "string:IsEnabled")
        if "true" not in enabled:
            self._dbus_send(address, "org.a11y.Bus", "/org/a11y/bus",
                            "org.freedesktop.DBus.Properties.Set", "string:org.a11y.Status",
                            "string:IsEnabled", "variant:boolean:true")
        # The accessibility bus daemon is the launcher's child: track it by PID.
        daemon = self._bus_pid(a11y, "org.freedesktop.DBus") or \
            _poll(lambda: _descendants(launcher.pid)[:1], 5, "the accessibility bus daemon")[0]
        self._pids["at-spi-bus-launcher/dbus-daemon"] = daemon

        # The registry as our own child, before anything asks the bus for it.
        registry = self._spawn("at-spi2-registryd", [REGISTRYD])
        owner = _poll(lambda: self._bus_pid(a11y, "org.a11y.atspi.Registry"), 10,
                      "org.a11y.atspi.Registry on the accessibility bus")
        if owner != registry.pid:  # activated by someone else's request: stop it too
            self._pids["at-spi2-registryd/activated"] = owner

        # This process's libatspi talks to this display and these buses (AT_SPI_BUS_ADDRESS:
        # the X root-window property it would read otherwise failed intermittently).
        os.environ["DISPLAY"] = self.display
        os.environ["DBUS_SESSION_BUS_ADDRESS"] = address
        os.environ["AT_SPI_BUS_ADDRESS"] = a11y
        gi.require_version("Atspi", "2.0")
        from gi.repository import Atspi
        self._Atspi = Atspi
        _poll(lambda: Atspi.get_desktop(0).get_child_count() >= 0, 10, "the AT-SPI desktop")

    def _dbus_send(self, bus: str, dest: str, path: str, method: str, *args: str) -> str:
        r = self._run("dbus-send", f"--bus={bus}", "--print-reply", f"--dest={dest}", path,
                      method, *args, timeout=10)
        if r.returncode != 0:
            raise DriverError(f"dbus-send {method}: {r.stderr.strip()}")
        return r.stdout

    def _a11y_address(self) -> Optional[str]:
        out = self._dbus_send(self.env["DBUS_SESSION_BUS_ADDRESS"], "org.a11y.Bus",
                              "/org/a11y/bus", "org.a11y.Bus.GetAddress")
        m = re.search(r'string "([^"]+)"', out)
        return m.group(1) if m else None

    def _bus_pid(self, bus: str, name: str) -> Optional[int]:
        try:
            out = self._dbus_send(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                  "org.freedesktop.DBus.GetConnectionUnixProcessID",
                                  f"string:{name}")
        except DriverError:
            return None
        m = re.search(r"uint32 (\d+)", out)
        return int(m.group(1)) if m else None

    def _wm_running(self) -> bool:
        r = self._run("xprop", "-root", "_NET_SUPPORTING_WM_CHECK") if shutil.which("xprop") \
            else None
        return r is None or "window id" in r.stdout

    # ------------------------------------------------------------------ the app process
    def _start_app(self) -> None:
        env = dict(self.env)
        env.update({"RUMMIKUB_COMPANION_DATA": self.data_dir, "LANG": self.lang,
                    "RUST_BACKTRACE": "1"})
        env.update(self.app_env)
        self.app_runs += 1
        self._frame, self._wid = None, None
        self.app = self._spawn("app", [self.binary], env=env, log=f"app-{self.app_runs}.log")
        _poll(self._find_frame, self.timeout,
              f"the app (pid {self.app.pid}) on the AT-SPI desktop (is accesskit's bridge on?)",
              interval=0.25)
        if self.wm:
            self._settle()  # openbox places (and may move) a new window
        else:
            self._geometry()
        self.focus()
        _poll(lambda: len(self.tree()) > 3, self.timeout, "the app's first accessible tree",
              interval=0.25)
        self._log(f"app pid {self.app.pid} ready: window {self._wid} at {self._origin} "
                  f"size {self.window_size}")

    def _find_frame(self):
        Atspi = self._Atspi
        self._check_app()
        desktop = Atspi.get_desktop(0)
        for i in range(desktop.get_child_count()):
            a = desktop.get_child_at_index(i)
            try:
                if a is None or a.get_process_id() != self.app.pid:
                    continue
                Atspi.Accessible.set_cache_mask(a, Atspi.Cache.NONE)
                for j in range(a.get_child_count()):
                    f = a.get_child_at_index(j)
                    if f is not None and f.get_role_name() == "frame":
                        self._frame = f
                        return f
            except Exception:  # noqa: BLE001 - an app that just went away
                continue
        return None

    def _stop_app(self, timeout: float, sig: int = signal.SIGTERM) -> Optional[int]:
        p = self.app
        if p is None:
            return None
        kids = _descendants(p.pid) if p.poll() is None else []
        if p.poll() is None:
            self._log(f"sending {signal.Signals(sig).name} to app pid {p.pid}")
            p.send_signal(sig)
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)
        for pid in kids:  # e.g. an "Open folder" helper
            _terminate(pid)
        self._frame = None
        return p.returncode

    def kill_app(self, sig: int = signal.SIGKILL, timeout: float = 10.0) -> int:
        """Sends `sig` to the app only (SIGKILL: a crash or a power cut) and waits for it to
        end; the display and the buses keep running. Returns the app's exit status (-9 ...)."""
        if self.app is None or self.app.poll() is not None:
            raise AppExited("the app is not running")
        return self._stop_app(timeout, sig)

    def restart_app(self) -> None:
        """Starts the app again on the same data folder, display and buses (after kill_app or
        after the app quit) and waits until its window is on the AT-SPI desktop."""
        if self.app_alive():
            raise DriverError("the app is still running: kill_app() first")
        self._start_app()

    def app_alive(self) -> bool:
        return self.app is not None and self.app.poll() is None

    def app_log(self, lines: int = 30) -> str:
        """The last lines the current app process wrote to stdout and stderr."""
        try:
            with open(os.path.join(self.tmp, f"app-{self.app_runs}.log"), "rb") as f:
                return "\n".join(f.read().decode(errors="replace").splitlines()[-lines:])
        except (OSError, TypeError):
            return ""

    def _check_app(self) -> None:
        if self.app is None or self.app.poll() is not None:
            code = None if self.app is None else self.app.returncode
            raise AppExited(f"the app is not running (exit status {code}); its last output:\n"
                            + self.app_log())

    def pids(self) -> dict:
        """PIDs of everything this session started (for the record)."""
        out = {name: p.pid for name, p in self._procs}
        out.update(self._pids)
        if self.app is not None:
            out["app"] = self.app.pid
        return out

    # ------------------------------------------------------------------ the window
    def _geometry(self) -> tuple:
        """Finds the app's window (by _NET_WM_PID) and reads its client area's screen box."""
        def look():
            self._check_app()
            if self._wid is None:
                r = self._run("xdotool", "search", "--onlyvisible", "--pid", str(self.app.pid))
                if not r.stdout.split():
                    return None
                self._wid = r.stdout.split()[0]
            r = self._run("xwininfo", "-id", self._wid)
            if r.returncode != 0:  # the window is gone: look for it again
                self._wid = None
                return None
            v = dict((k.strip(), val.strip()) for k, val in
                     (line.split(":", 1) for line in r.stdout.splitlines() if ":" in line))
            return (int(v["Absolute upper-left X"]), int(v["Absolute upper-left Y"]),
                    int(v["Width"]), int(v["Height"]), v.get("Map State", ""))
        g = _poll(look, 15, "the app's X window")
        self._origin, self.window_size = (g[0], g[1]), (g[2], g[3])
        return g

    def _settle(self, timeout: float = 10.0) -> tuple:
        """Waits until the window is mapped and stays put for 0.2 s (openbox animates a restore:
        the window flies in from its icon for ~0.2 s, and a click during that misses)."""
        last = [None]

        def still():
            g = self._geometry()
            if g[4] != "IsViewable":
                last[0] = None
                return None
            same, last[0] = g == last[0], g
            return g if same else None
        return _poll(still, timeout, "the window to be shown and stay put", interval=0.2)

    def window_id(self) -> str:
        """The app window's X id (decimal, as xdotool prints it)."""
        if self._wid is None:
            self._geometry()
        return self._wid

    def window_box(self) -> tuple:
        """(x, y, width, height) of the window's client area on the screen."""
        return self._geometry()[:4]

    def is_minimised(self) -> bool:
        """True while the window is iconified (not mapped)."""
        return self._geometry()[4] != "IsViewable"

    def focus(self) -> None:
        """Gives the app window the X input focus if it does not have it."""
        wid = self.window_id()
        if self._run("xdotool", "getwindowfocus").stdout.strip() == wid:
            return
        if self.wm:
            self._xdo("windowactivate", "--sync", wid)
        else:
            self._xdo("windowfocus", "--sync", wid)

    def minimise(self) -> None:
        """Iconifies the window, as its title bar's button would (needs wm=True)."""
        if not self.wm:
            raise DriverError("minimise() needs a window manager: Session(..., wm=True)")
        wid = self.window_id()
        self._xdo("windowminimize", "--sync", wid)
        _poll(self.is_minimised, 10, "the window to be minimised")

    def restore(self) -> None:
        """Brings a minimised window back and gives it the focus (needs wm=True)."""
        if not self.wm:
            raise DriverError("restore() needs a window manager: Session(..., wm=True)")
        wid = self.window_id()
        self._xdo("windowactivate", "--sync", wid)
        self._settle()

    # ------------------------------------------------------------------ reading
    def tree(self, visible_only: bool = True) -> list:
        """The app's accessible tree, depth first, as a flat list of Nodes (screen coordinates).
        With visible_only, widgets with no box are left out (panels and the frame stay)."""
        Atspi = self._Atspi
        self._check_app()
        if self._frame is None and not self._find_frame():
            raise DriverError("the app's frame is not on the AT-SPI desktop")
        ox, oy = self._geometry()[:2]  # a window manager may move the window
        out = []

        def walk(acc, depth, path):
            try:
                role = acc.get_role_name()
                name = acc.get_name() or ""
                desc = acc.get_description() or ""
                text = None
                if acc.get_text_iface() is not None:
                    text = Atspi.Text.get_text(acc, 0, Atspi.Text.get_character_count(acc))
                x = y = w = h = -1
                if acc.get_component_iface() is not None:
                    e = Atspi.Component.get_extents(acc, Atspi.CoordType.WINDOW)
                    x, y, w, h = e.x, e.y, e.width, e.height
                    if w > 0 and h > 0:
                        x, y = x + ox, y + oy
                value = None
                if acc.get_value_iface() is not None:
                    value = Atspi.Value.get_current_value(acc)
                states = tuple(sorted(Atspi.StateType(st).value_nick
                                      for st in acc.get_state_set().get_states()))
                count = acc.get_child_count()
            except Exception:  # noqa: BLE001 - the widget went away during the walk
                return
            node = Node(role, name, text, desc, states, x, y, w, h, depth, path, value, acc)
            if not visible_only or node.has_box or role in ("frame", "panel", "application"):
                out.append(node)
            for i in range(count):
                child = acc.get_child_at_index(i)
                if child is not None:
                    walk(child, depth + 1, path + (i,))

        try:
            walk(self._frame, 0, ())
        except Exception:  # noqa: BLE001
            self._check_app()
            raise
        if not out:
            self._check_app()
            self._frame = None  # a stale frame (the app restarted its adapter): find it again
        return out

    def dump(self, nodes: Optional[list] = None) -> str:
        """The whole tree, one widget a line."""
        return "\n".join(n.line() for n in (self.tree() if nodes is None else nodes))

    def _seen(self, role: Optional[str] = None) -> str:
        nodes = [n for n in self.tree() if n.has_box and n.label
                 and n.role not in ("frame", "panel", "application")]
        if role is not None and any(self._role_ok(n, role) for n in nodes):
            nodes = [n for n in nodes if self._role_ok(n, role)]
        shown = [f"{n.role}:{n.label!r}" for n in sorted(nodes, key=lambda n: (n.y, n.x))]
        return f"visible ({len(shown)}): " + ", ".join(shown[:80])

    @staticmethod
    def _role_ok(node: Node, role: Optional[str]) -> bool:
        return role is None or node.role in ROLES.get(role, {role})

    @staticmethod
    def _label_ok(node: Node, label) -> bool:
        if label is None:
            return True
        if isinstance(label, re.Pattern):
            return bool(label.search(node.label))
        return node.label == label

    def find_all(self, role: Optional[str] = None, label=None,
                 nodes: Optional[list] = None) -> list:
        """Every widget with this role (an alias in ROLES or an AT-SPI role name) and label
        (exact string or re.Pattern), read once, in tree order."""
        nodes = self.tree() if nodes is None else nodes
        return [n for n in nodes if self._role_ok(n, role) and self._label_ok(n, label)]

    def find(self, role: Optional[str] = None, label=None, timeout: float = 5.0,
             index: int = 0) -> Node:
        """The index-th widget with this role and label, waiting up to `timeout` s for it."""
        def look():
            hits = self.find_all(role, label)
            return hits[index] if len(hits) > index else None
        what = f"{role or 'widget'} {getattr(label, 'pattern', label)!r}" + \
            (f" (index {index})" if index else "")
        return _poll(look, timeout, what, seen=lambda: self._seen(role))

    def exists(self, role: Optional[str] = None, label=None) -> bool:
        """Whether such a widget is there now (one read, no waiting)."""
        return bool(self.find_all(role, label))

    def wait_until(self, pred: Callable[["Session"], object], timeout: float = 5.0,
                   what: Optional[str] = None):
        """Polls pred(session) until it is truthy; returns its value."""
        name = getattr(pred, "__name__", "<lambda>")
        return _poll(lambda: pred(self), timeout,
                     what or (name if name != "<lambda>" else "a condition"), seen=self._seen)

    def labels(self) -> list:
        """The visible plain-text labels, in reading order (top to bottom, left to right)."""
        ls = [n for n in self.tree() if n.role in ROLES["label"] and n.has_box]
        return [n.label for n in sorted(ls, key=lambda n: (n.y, n.x))]

    def row_of(self, anchor: Node, role: Optional[str] = "label",
               nodes: Optional[list] = None) -> list:
        """The widgets to the right of `anchor` on its line (vertical centres within half its
        height), left to right: a table row, since grid cells are flat labels."""
        nodes = self.tree() if nodes is None else nodes
        cy, tol = anchor.y + anchor.h / 2, max(4, anchor.h / 2)
        row = [n for n in nodes if n.has_box and self._role_ok(n, role) and n.path != anchor.path
               and abs(n.y + n.h / 2 - cy) <= tol and n.x >= anchor.x + anchor.w]
        return sorted(row, key=lambda n: n.x)

    def row_values(self, first_cell, index: int = 0, role: Optional[str] = "label",
                   timeout: float = 5.0) -> list:
        """The texts right of the label `first_cell` ('Total' gives the totals row), waiting
        up to `timeout` s for the label and a non-empty row."""
        def look():
            nodes = self.tree()
            anchors = self.find_all("label", first_cell, nodes)
            if len(anchors) <= index:
                return None
            return [n.label for n in self.row_of(anchors[index], role, nodes)] or None
        return _poll(look, timeout, f"the row of label {first_cell!r}", seen=self._seen)

    def grid(self, anchor, index: int = 0, role: Optional[str] = "label",
             timeout: float = 5.0) -> list:
        """A grid as rows of texts: the anchor's row, then each row below whose first cell is
        left-aligned with the anchor and has cells to its right, until a row does not fit."""
        def look():
            nodes = self.tree()
            anchors = self.find_all("label", anchor, nodes)
            if len(anchors) <= index:
                return None
            a = anchors[index]
            rows, last = [[a.label] + [n.label for n in self.row_of(a, role, nodes)]], a
            firsts = sorted((n for n in nodes if n.role in ROLES["label"] and n.has_box
                             and abs(n.x - a.x) <= 3 and n.y > a.y), key=lambda n: n.y)
            for f in firsts:
                if f.y < last.y + last.h / 2:
                    continue
                cells = self.row_of(f, role, nodes)
                if not cells or f.y - (last.y + last.h) > 3 * max(last.h, 15):
                    break
                rows.append([f.label] + [n.label for n in cells])
                last = f
            return rows
        return _poll(look, timeout, f"a grid under label {anchor!r}", seen=self._seen)

    def field_near(self, label: str, index: int = 0, timeout: float = 5.0) -> Node:
        """The text field named `label` (the app links fields to their labels), else the field
        right of, then below, the label `label`."""
        def look():
            nodes = self.tree()
            named = [n for n in nodes if self._role_ok(n, "field") and n.name == label]
            if len(named) > index:
                return named[index]
            anchors = [n for n in nodes if n.role in ROLES["label"] and n.label == label]
            if len(anchors) <= index:
                return None
            a = anchors[index]
            right = self.row_of(a, "field", nodes)
            if right:
                return right[0]
            below = sorted((n for n in nodes if self._role_ok(n, "field") and n.has_box
                            and n.y >= a.y + a.h and abs(n.x - a.x) < 200),
                           key=lambda n: (n.y - a.y, abs(n.x - a.x)))
            return below[0] if below else None
        return _poll(look, timeout, f"a text field named or next to {label!r}",
                     seen=lambda: self._seen("field"))

    # ------------------------------------------------------------------ acting
    def _xdo(self, *args: str) -> None:
        r = self._run("xdotool", *args, timeout=30)
        if r.returncode != 0:
            raise DriverError(f"xdotool {' '.join(args)}: {r.stderr.strip()}")

    def click_at(self, x: int, y: int, button: int = 1, repeat: int = 1,
                 delay_ms: int = 120) -> None:
        """Moves the pointer to (x, y) on the screen and clicks `repeat` times."""
        x, y = int(x), int(y)
        out = self._run("xdotool", "getmouselocation", "--shell").stdout
        here = dict(line.split("=", 1) for line in out.split() if "=" in line)
        if (here.get("X"), here.get("Y")) != (str(x), str(y)):
            # --sync waits for the pointer to move: never ask it to when it is there already
            self._xdo("mousemove", "--sync", str(x), str(y))
        time.sleep(0.1)
        self._xdo("click", "--repeat", str(repeat), "--delay", str(delay_ms), str(button))

    def click(self, target, label=None, repeat: int = 1, delay_ms: int = 120,
              settle: float = 0.4, timeout: float = 5.0) -> Node:
        """Clicks a widget at the centre of its visible part: click(node), click('button',
        'Add game'); repeat=2 is a double click. Waits `settle` s for the frame after."""
        node = target if isinstance(target, Node) else self.find(target, label, timeout)
        if not node.has_box:
            raise DriverError(f"{node.role} {node.label!r} has no box on the screen")
        x, y, w, h = self.window_box()
        box = node.clipped(x, y, x + w, y + h)
        if box is None:
            raise DriverError(f"{node.role} {node.label!r} at {node.x},{node.y} is outside the "
                              f"{w}x{h} window at {x},{y}")
        self.focus()
        self.click_at(box[0] + box[2] // 2, box[1] + box[3] // 2, repeat=repeat,
                      delay_ms=delay_ms)
        time.sleep(settle)
        return node

    def activate(self, target, label=None, timeout: float = 5.0) -> Node:
        """Runs the widget's AT-SPI default action (no pointer; works off screen too)."""
        node = target if isinstance(target, Node) else self.find(target, label, timeout)
        if self._Atspi.Action.get_n_actions(node.acc) < 1:
            raise DriverError(f"{node.role} {node.label!r} has no action")
        self._Atspi.Action.do_action(node.acc, 0)
        time.sleep(0.3)
        return node

    def type_text(self, text: str, delay_ms: int = 40) -> None:
        """Types into whatever has the keyboard focus."""
        self.focus()
        self._xdo("type", "--delay", str(delay_ms), "--", text)
        time.sleep(0.2)

    def type_into(self, field: Node, text: str, clear: bool = True) -> None:
        """Clicks a text field, selects and deletes what is in it (unless clear=False), types."""
        self.click(field, settle=0.2)
        if clear:
            self.key("ctrl+a", "BackSpace")
        self.type_text(text)

    def key(self, *names: str, settle: float = 0.15) -> None:
        """Presses and releases keys, one after the other (xdotool names: Return, Tab, space,
        F1, ctrl+a, BackSpace, Escape)."""
        self.focus()
        self._xdo("key", "--delay", "60", *names)
        time.sleep(settle)

    def hold(self, key: str, seconds: float) -> None:
        """Holds a key down for `seconds`; the X server's autorepeat applies, as on a real
        keyboard (see autorepeat())."""
        self.focus()
        self._xdo("keydown", key)
        try:
            time.sleep(seconds)
        finally:
            self._xdo("keyup", key)
        time.sleep(0.2)

    def autorepeat(self) -> str:
        """The display's key autorepeat, as `xset q` reports it ('on, delay 660 ms, rate 25/s')."""
        if not shutil.which("xset"):
            raise DriverError("xset not found (apt-get install -y x11-xserver-utils)")
        out = self._run("xset", "q").stdout
        m = re.search(r"auto repeat:\s*(\w+).*?auto repeat delay:\s*(\d+)\s*repeat rate:\s*(\d+)",
                      out, re.S)
        return f"{m.group(1)}, delay {m.group(2)} ms, rate {m.group(3)}/s" if m else out.strip()

    def set_autorepeat(self, on: bool) -> None:
        """Switches the display's key autorepeat on or off (`xset r on|off`)."""
        if not shutil.which("xset"):
            raise DriverError("xset not found (apt-get install -y x11-xserver-utils)")
        if self._run("xset", "r", "on" if on else "off").returncode != 0:
            raise DriverError("xset r failed")

    def screenshot(self, path: str) -> str:
        """The whole virtual screen as a PNG (ImageMagick `import -window root`)."""
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        r = self._run("import", "-window", "root", path, timeout=30)
        if r.returncode != 0:
            raise DriverError(f"import: {r.stderr.strip()}")
        return path


# ---------------------------------------------------------------------- the timer's widgets
CLOCK = re.compile(r"^(?P<state>.+) (?P<digits>\d+:\d\d)$")


def clock(s: Session, timeout: float = 5.0) -> dict:
    """The timer's clock: its digits are painted, but the app names the clock area (a button)
    '<state> <m:ss>', e.g. {'state': 'Running', 'digits': '0:59', 'name': 'Running 0:59'}."""
    node = s.find("push button", CLOCK, timeout)
    m = CLOCK.match(node.name)
    return {"state": m.group("state"), "digits": m.group("digits"), "name": node.name}


def timer_stats(s: Session, header: str = "Player") -> dict:
    """The timer's statistics table as {player: {column: cell}}; `header` is its first header
    cell ('Player' in English)."""
    rows = s.grid(header)
    return {r[0]: dict(zip(rows[0][1:], r[1:])) for r in rows[1:]}
