"""The live page's check mode in headless Chromium, for scripts/wasm-test: for each case, the page
`cratedrop page` writes (the world in it, from file://) opened with ?check=N&trail=1&restore=300
must write the CLI's hash line for every step (the CLI's trail, made by scripts/wasm-test) and the
CLI's determinism class.

    python3 Tests/Wasm/chromium_check.py CRATEDROP WASM_DIR WORK STEPS CLASS NAME=SCENE[,INPUTS]...

Exit 0 when every case agrees, 1 otherwise (the first differing line named). Needs Debian's
chromium and chromium-driver, and Selenium (scripts/wasm-test installs them)."""
import os
import subprocess
import sys
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


def wait_for_check(driver, limit):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        text, problem = driver.execute_script(
            "return [document.getElementById('check').textContent, window.cratedrop && window.cratedrop.problem]")
        if text or problem:
            return text, problem
        time.sleep(0.2)
    return None, f"no check line within {limit} s"


def main():
    cratedrop, wasm_dir, work, steps, expected_class, *cases = sys.argv[1:]
    driver = browser()
    failures = 0
    try:
        for case in cases:
            name, files = case.split("=", 1)
            scene, _, inputs = files.partition(",")
            out = os.path.join(work, "check-pages", name)
            subprocess.run([cratedrop, "page", scene, "--out", out, "--wasm", wasm_dir] + (["--inputs", inputs] if inputs else []),
                           check=True, capture_output=True, timeout=300)
            driver.get(f"file://{os.path.abspath(out)}/index.html?check={steps}&trail=1&restore=300")
            # Generous for a 2-core machine busy with other work: pile-1000's 1,200 steps take about 10 s.
            check, problem = wait_for_check(driver, 600)
            trail, page_class = driver.execute_script(
                "return [document.getElementById('trail').textContent, document.getElementById('checkClass').textContent]")
            expected = open(os.path.join(work, f"{name}.cli.trail")).read()
            if not check or problem:
                print(f"chromium: {name}: the page did not finish: {problem}", file=sys.stderr)
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
    sys.exit(1 if failures else 0)


main()
