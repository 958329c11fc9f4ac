"""`cratedrop page` in headless Chromium, for scripts/wasm-test: the page with the world running in
it, opened from file:// with no server.

    python3 Tests/Wasm/in_page_test.py CRATEDROP WASM_DIR WORK

- pile-1000 holds the display's rate (median frame interval within 10% of the display's), quiet
  and while one CPU core is kept busy by another process (asserted when the machine was idle as
  the test began; on a machine already busy with other work, printed); the steps it takes and the time it drops
  add up to the time that passed (its steps a second are a figure: a machine's speed is no test's
  business); paused, its hash is `cratedrop hash`'s at that step;
- `?check=1200` writes the CLI's line, after an input stream too (`--inputs`);
- book: an arrow key tilts gravity, a click on empty space drops a crate (drawn, in a parts
  message), X over it removes it; the record the page gives verifies with `replay --verify` to
  the page's step and hash, its state file reads natively at them, and a state the CLI saved goes
  on in the page as in the CLI; a push naming no body is refused with the CLI's reason;
- a browser without WebAssembly is told so, and how to run the scene instead;
- `cratedrop serve` serves the same page, its own run paused until a page without WebAssembly
  falls back to it (then streamed frames, the run resumed);
- `cratedrop page` refuses a bad scene with the CLI's message (65) and a missing engine (69).
Prints the figures as one JSON line; exit 0 when all hold, 1 otherwise."""
import base64
import json
import os
import re
import signal
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

cratedrop, wasm_dir, work = sys.argv[1:4]
failures = []
figures = {}


def check(ok, what):
    print(f"in_page_test: {'ok' if ok else 'FAILED'}: {what}", file=sys.stderr)
    if not ok:
        failures.append(what)


def idle_cores(seconds=1.0):
    """How many cores sat idle over `seconds`, from /proc/stat (idle and iowait time)."""
    def sample():
        with open("/proc/stat") as stat:
            fields = [int(value) for value in stat.readline().split()[1:]]
        return sum(fields), fields[3] + fields[4]
    total, idle = sample()
    time.sleep(seconds)
    total_after, idle_after = sample()
    return (idle_after - idle) / max(1, total_after - total) * os.cpu_count()


# The page's pace is promised for a machine with a core to spare beyond the page's (and, in the
# "busy" phase, the one core this test keeps busy itself): measured before anything starts, on a
# machine already kept busy by other work it is printed as a figure, not asserted (issue 49: the
# suite passes with both cores busy; a machine's speed is a benchmark's business, not a test's).
IDLE_AT_START = idle_cores()
PACE_ASSERTED = IDLE_AT_START >= os.cpu_count() - 0.5
figures["idle_cores_at_start"] = round(IDLE_AT_START, 2)
figures["pace_asserted"] = PACE_ASSERTED


def browser(webassembly=True):
    """Debian's chromium and chromedriver; rAF keeps the display's pace in the background too.
    webassembly=False: every page it opens has none (deleted before any script runs)."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-timer-throttling",
                 "--disable-renderer-backgrounding", "--allow-file-access-from-files"]:
        options.add_argument(flag)
    driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))
    driver.set_window_size(1400, 1000)
    if not webassembly:
        driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete globalThis.WebAssembly;"})
    return driver


def frame_gaps(driver):
    """The intervals between the page's drawn frames since the count was last cleared, sorted."""
    return driver.execute_script("""
        const d = window.cratedrop.drawn, g = [];
        for (let i = 1; i < d.length; i++) g.push(d[i] - d[i - 1]);
        return g.sort((a, b) => a - b);""")


def wait_for(driver, script, limit, what):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = driver.execute_script(script)
        if value:
            return value
        time.sleep(0.1)
    raise TimeoutError(f"waited {limit} s for {what}")


def page(scene, name, *extra):
    out = os.path.join(work, "pages", name)
    done = subprocess.run([cratedrop, "page", scene, "--out", out, "--wasm", wasm_dir, *extra], capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        raise RuntimeError(f"cratedrop page {scene}: exit {done.returncode}: {done.stderr}")
    return "file://" + os.path.abspath(done.stdout.strip())


def cli_hash(scene, steps, *extra):
    return subprocess.run([cratedrop, "hash", scene, "--steps", str(steps), *extra], capture_output=True, text=True, timeout=600,
                          check=True).stdout.strip()


def steady(driver):
    """The step and hash once the page is paused and its step stays put."""
    last = None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        now = driver.execute_script("return [window.cratedrop.step, window.cratedrop.hash]")
        if now == last:
            return now
        last = now
        time.sleep(0.3)
    raise TimeoutError("the paused page's step kept changing")


pile = page("Scenes/pile-1000.json", "pile-1000")
driver = browser()
try:
    # The check mode: the CLI's line, as fast as the page can.
    driver.get(pile + "?check=1200")
    line = wait_for(driver, "return document.getElementById('check').textContent", 300, "the check line")
    check(line == cli_hash("Scenes/pile-1000.json", 1200), f"pile-1000 ?check=1200 writes the CLI's line ({line})")

    # The display's interval: requestAnimationFrame's median on an empty page, no load.
    driver.get("data:text/html,<title>display</title>")
    display = driver.execute_async_script("""
        const done = arguments[0], t = [];
        const tick = (now) => {
          t.push(now);
          if (t.length < 121) return requestAnimationFrame(tick);
          const g = t.slice(1).map((v, i) => v - t[i]).sort((a, b) => a - b);
          done(g[60]);
        };
        requestAnimationFrame(tick);""")
    driver.get(pile)
    wait_for(driver, "return window.cratedrop && window.cratedrop.step > 240", 120, "pile-1000 past step 240")
    # Quiet, then with one core kept busy by another process spinning on it.
    for load in ["quiet", "busy"]:
        busy = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if load == "busy" else None
        try:
            time.sleep(1)
            driver.execute_script("window.cratedrop.drawn.length = 0")
            first = driver.execute_script("return [performance.now(), window.cratedrop.step, Number.parseFloat(document.getElementById('dropped').textContent)]")
            time.sleep(5)
            gaps = frame_gaps(driver)
            last = driver.execute_script("return [performance.now(), window.cratedrop.step, Number.parseFloat(document.getElementById('dropped').textContent)]")
        finally:
            if busy:
                busy.kill()
                busy.wait()
        median, p95 = gaps[len(gaps) // 2], gaps[int(len(gaps) * 0.95)]
        seconds = (last[0] - first[0]) / 1000
        rate, dropped = (last[1] - first[1]) / seconds, last[2] - first[2]
        figures[load] = dict(median_frame_ms=round(median, 1), p95_frame_ms=round(p95, 1), steps_per_second=round(rate, 1),
                             dropped_seconds=round(dropped, 3), step_time=driver.find_element(By.ID, "stepTime").text)
        # The drawing thread holds the display's rate: the world steps in a worker.
        pace = f"pile-1000, {load}: median frame {median:.1f} ms, the display's {display:.1f} ms"
        if PACE_ASSERTED:
            check(median <= 1.1 * display, pace)
        else:
            print(f"in_page_test: not asserted (the machine was busy before the test: {IDLE_AT_START:.2f} of {os.cpu_count()} "
                  f"cores idle): {pace}", file=sys.stderr)
        # Time the world could not keep is dropped and counted, never lost unseen: steps taken and
        # seconds dropped add up to the time that passed (within a few frames).
        check(abs((last[1] - first[1]) / 120 + dropped - seconds) < 0.25,
              f"pile-1000, {load}: {last[1] - first[1]:.0f} steps and {dropped:.3f} s dropped account for {seconds:.2f} s")
    driver.find_element(By.ID, "pause").click()
    step, shown = steady(driver)
    check(cli_hash("Scenes/pile-1000.json", int(step)) == f"{int(step)} {shown}", f"pile-1000 paused at step {int(step)} shows the CLI's hash {shown}")
finally:
    driver.quit()

# An input stream given to `cratedrop page`: the check line after it.
pushed = page("Scenes/book.json", "book-push", "--inputs", "Scenes/push.jsonl")
driver = browser()
try:
    driver.get(pushed + "?check=600")
    line = wait_for(driver, "return document.getElementById('check').textContent", 120, "the check line")
    check(line == cli_hash("Scenes/book.json", 600, "--inputs", "Scenes/push.jsonl"), f"book after push.jsonl: ?check=600 writes the CLI's line ({line})")
finally:
    driver.quit()

book = page("Scenes/book.json", "book")
driver = browser()
try:
    driver.get(book)
    wait_for(driver, "return window.cratedrop && window.cratedrop.step > 120", 60, "book running")
    canvas = driver.find_element(By.ID, "view")
    driver.execute_script("arguments[0].focus()", canvas)
    before = driver.find_element(By.ID, "gravity").text
    ActionChains(driver).send_keys(Keys.ARROW_LEFT).perform()
    after = driver.find_element(By.ID, "gravity").text
    check(before == "[0, -1000]" and after != before, f"an arrow key tilts gravity ({before} -> {after})")
    # A click near the top middle, on empty space: a crate dropped there, drawn, told in a parts message.
    bodies = driver.execute_script("return window.cratedrop.bodiesDrawn")
    ActionChains(driver).move_to_element_with_offset(canvas, 0, -canvas.size["height"] // 2 + 8).click().perform()
    wait_for(driver, f"return window.cratedrop.bodiesDrawn === {bodies + 1} && window.cratedrop.partsReceived >= 1", 10, "the dropped crate")
    # X with the pointer over it, aimed again at each try (it may still be falling).
    deadline, removed = time.monotonic() + 10, False
    while time.monotonic() < deadline and not removed:
        aim = driver.execute_script(f"""
            const c = document.getElementById('view');
            const at = frames[frames.length - 1].positions.get({bodies + 1}), wx = scene.world[0], hw = c.height * wx / c.width;
            return at ? [at[0] / wx * c.clientWidth - c.clientWidth / 2, (hw - at[1]) / hw * c.clientHeight - c.clientHeight / 2] : null;""")
        if aim:
            ActionChains(driver).move_to_element_with_offset(canvas, int(aim[0]), int(aim[1])).send_keys("x").perform()
        try:
            wait_for(driver, f"return window.cratedrop.bodiesDrawn === {bodies}", 1, "the removal")
            removed = True
        except TimeoutError:
            pass
    check(removed, "X over the dropped crate removes it")
    # The page's record, as the download button gives it: `replay --verify` verifies it natively,
    # through the tilt, the drop and the removal.
    driver.find_element(By.ID, "pause").click()
    step, shown = steady(driver)
    record = driver.execute_async_script("link.record(arguments[0])")
    with open(os.path.join(work, "in-page.rec"), "w") as file:
        file.write(record)
    replay = subprocess.run([cratedrop, "replay", os.path.join(work, "in-page.rec"), "--verify"], capture_output=True, text=True, timeout=300)
    summary = json.loads(replay.stdout.strip().splitlines()[-1]) if replay.returncode == 0 else {}
    check(replay.returncode == 0 and summary.get("verified") and summary.get("state_hash") == shown and summary.get("steps") == step,
          f"the page's record verifies natively to its step {int(step)} and hash {shown} (exit {replay.returncode}, {replay.stderr.strip()[-200:]!r})")
    # Its state as the CLI's saved-state file: `cratedrop hash` reads it at the page's step and hash;
    # and a state the CLI saved, loaded into the page, shows the CLI's step and hash.
    state = driver.execute_async_script("""
        const done = arguments[0];
        link.stateFile((bytes) => { let text = ""; for (const b of bytes) text += String.fromCharCode(b); done(btoa(text)); });""")
    with open(os.path.join(work, "in-page.state"), "wb") as file:
        file.write(base64.b64decode(state))
    native = subprocess.run([cratedrop, "hash", os.path.join(work, "in-page.state"), "--steps", "0"], capture_output=True, text=True, timeout=300)
    check(native.stdout.strip().endswith(f"{int(step)} {shown}"), f"the page's state file reads natively at its step and hash ({native.stdout.strip()[-40:]!r}, {native.stderr.strip()[-200:]!r})")
    cli_state = os.path.join(work, "cli-120.state")
    expected = subprocess.run([cratedrop, "hash", "Scenes/book.json", "--steps", "120", "--save-state", cli_state], capture_output=True, text=True,
                              timeout=300, check=True).stdout.strip().splitlines()[-1]
    with open(cli_state, "rb") as file:
        driver.execute_script("link.restore(Uint8Array.from(atob(arguments[0]), (c) => c.charCodeAt(0)))", base64.b64encode(file.read()).decode())
    driver.find_element(By.ID, "single").click()
    after = subprocess.run([cratedrop, "hash", cli_state, "--steps", "1"], capture_output=True, text=True, timeout=300, check=True).stdout.strip().splitlines()[-1]
    restored = wait_for(driver, f"return window.cratedrop.step === {int(after.split()[0])} ? window.cratedrop.hash : null", 10, "the restored world")
    check(f"{int(after.split()[0])} {restored}" == after, f"a state the CLI saved ({expected}) goes on in the page as in the CLI ({after})")
    driver.execute_script("link.send({push: {body: 99, velocity: [0, 900], at: [10, 10]}})")
    refused = wait_for(driver, "return window.cratedrop.refused", 10, "the refusal")
    check("body 99 is not in the world" in refused, f"a push to no body is refused with its reason ({refused!r})")
finally:
    driver.quit()

# A browser without WebAssembly: told so, and what to run instead.
driver = browser(webassembly=False)
try:
    driver.get(book)
    status = wait_for(driver, "const s = document.getElementById('status').textContent; return s.includes('WebAssembly') ? s : null", 20,
                      "the page's word on WebAssembly")
    check("no WebAssembly" in status and "--streamed" in status, f"without WebAssembly the page says so ({status!r})")
finally:
    driver.quit()

# `cratedrop serve`: the page that runs the world itself; the server's run waits, paused, for a
# page without WebAssembly, which falls back to the streamed world.
server = subprocess.Popen([cratedrop, "serve", "Scenes/book.json", "--port", "0", "--wasm", wasm_dir], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
try:
    line = server.stderr.readline()
    url = re.search(r"at (http://\S+/)", line).group(1)
    check("the world runs in the page" in line, f"serve says the world runs in the page ({line.strip()!r})")
    driver = browser()
    try:
        driver.get(url)
        wait_for(driver, "return window.cratedrop && window.cratedrop.step > 60 && link.local", 60, "the served page running its world")
        check(driver.execute_script("return socket === null"), "the served page that runs its world opens no socket")
    finally:
        driver.quit()
    driver = browser(webassembly=False)
    try:
        driver.get(url)
        wait_for(driver, "return window.cratedrop && window.cratedrop.received > 30 && window.cratedrop.step > 30 && socket !== null", 60,
                 "streamed frames for a page without WebAssembly")
        check(True, "a served page without WebAssembly falls back to the server's streamed world, which resumes for it")
    finally:
        driver.quit()
finally:
    server.send_signal(signal.SIGINT)
    out, _ = server.communicate(timeout=30)
check(server.returncode == 130 and json.loads(out.strip().splitlines()[-1])["scene"] == "book", f"serve ends on Ctrl-C with its summary (exit {server.returncode})")

# Refusals by `cratedrop page` itself.
bad = os.path.join(work, "bad.json")
done = subprocess.run([cratedrop, "page", bad, "--out", os.path.join(work, "pages", "bad"), "--wasm", wasm_dir], capture_output=True, text=True)
cli = subprocess.run([cratedrop, "hash", bad, "--steps", "1"], capture_output=True, text=True)
check(done.returncode == 65 and done.stderr == cli.stderr, f"a bad scene: exit {done.returncode}, the CLI's message ({done.stderr.strip()!r})")
done = subprocess.run([cratedrop, "page", "Scenes/book.json", "--out", os.path.join(work, "pages", "none"), "--wasm", os.path.join(work, "no-such")],
                      capture_output=True, text=True)
check(done.returncode == 69 and "Backends/wasm/build" in done.stderr, f"no engine: exit {done.returncode} ({done.stderr.strip()!r})")

print(json.dumps(figures))
sys.exit(1 if failures else 0)
