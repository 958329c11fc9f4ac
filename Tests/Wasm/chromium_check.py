"""The wasm page's check mode in headless Chromium, for scripts/wasm-test: for each case, the
page (Backends/wasm/page) opened with ?check=N&trail=1&restore=300 must write the CLI's hash line
for every step (the CLI's trail, made by scripts/wasm-test) and the CLI's determinism class.

    python3 Tests/Wasm/chromium_check.py WASM_DIR WORK STEPS CLASS NAME=SCENE[,INPUTS]...

Serves WASM_DIR's page with the repository's Scenes/ and Tests/ beside it on a loopback port.
Exit 0 when every case agrees, 1 otherwise (the first differing line named). Needs Debian's
chromium and chromium-driver, and Selenium (scripts/wasm-test installs them)."""
import functools
import http.server
import os
import sys
import threading
import time

from selenium import webdriver
from selenium.webdriver.common.by import By


def browser():
    # Debian's chromium and chromedriver, so Selenium never looks for a browser on the network.
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-timer-throttling",
                 "--disable-renderer-backgrounding"]:
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path="/usr/bin/chromedriver"))


def serve(root):
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=root)
    handler.extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                              ".mjs": "text/javascript", ".wasm": "application/wasm", ".jsonl": "text/plain"}
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def site(wasm_dir, work):
    """The page's files with the repository's scenes and inputs beside them."""
    root = os.path.join(work, "site")
    os.makedirs(root, exist_ok=True)
    for name in os.listdir(wasm_dir):
        link = os.path.join(root, name)
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(os.path.join(wasm_dir, name)), link)
    for folder in ["Scenes", "Tests"]:
        link = os.path.join(root, folder)
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(folder), link)
    return root


def wait_for_check(driver, limit):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        text = driver.find_element(By.ID, "check").text
        if text:
            return text
        time.sleep(0.2)
    return None


def main():
    wasm_dir, work, steps, expected_class, *cases = sys.argv[1:]
    server = serve(site(wasm_dir, work))
    port = server.server_address[1]
    driver = browser()
    failures = 0
    try:
        for case in cases:
            name, files = case.split("=", 1)
            scene, _, inputs = files.partition(",")
            query = f"scene={scene}&check={steps}&trail=1&restore=300" + (f"&inputs={inputs}" if inputs else "")
            driver.get(f"http://127.0.0.1:{port}/index.html?{query}")
            # Generous for a 2-core machine busy with other work: pile-1000's 1,200 steps take about 10 s.
            check = wait_for_check(driver, 600)
            trail = driver.execute_script("return document.getElementById('trail').textContent")
            page_class = driver.find_element(By.ID, "class").text
            expected = open(os.path.join(work, f"{name}.cli.trail")).read()
            problem = driver.find_element(By.ID, "problem").text
            if check is None or problem:
                print(f"chromium: {name}: the page did not finish: {problem or 'no check line within 600 s'}", file=sys.stderr)
                failures += 1
            elif trail != expected:
                got, want = trail.splitlines(), expected.splitlines()
                first = next((i for i in range(max(len(got), len(want))) if i >= len(got) or i >= len(want) or got[i] != want[i]), None)
                print(f"chromium: {name}: line {first + 1}: the page wrote {got[first] if first < len(got) else 'nothing'}, "
                      f"the CLI {want[first] if first < len(want) else 'nothing'}", file=sys.stderr)
                failures += 1
            elif page_class != expected_class:
                print(f"chromium: {name}: class {page_class}, the CLI's {expected_class}", file=sys.stderr)
                failures += 1
            else:
                print(f"chromium: {name}: {steps} steps equal (restored at 300), {check}", file=sys.stderr)
    finally:
        driver.quit()
        server.shutdown()
    sys.exit(1 if failures else 0)


main()
