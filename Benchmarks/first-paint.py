#!/usr/bin/env python3
"""Time to first paint of pages opened from disk in headless Chromium.

    Benchmarks/first-paint.py [--runs 5] FILE.html...

For each page, a fresh headless Chromium (Debian's `chromium`) opens it by its file:// URL, driven
over the DevTools protocol on a pipe (--remote-debugging-pipe: commands on fd 3, answers on fd 4,
NUL-separated JSON; no Python packages needed), and reports the page's own Performance API figures:
first-contentful-paint and the load event, in milliseconds from the start of navigation. Prints one
line per page: the medians of --runs runs, and each run's figures.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def chromium():
    for name in (os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    sys.exit("first-paint.py: Chromium is not installed (apt-get install chromium)")


class Browser:
    """One headless Chromium with one page, spoken to over the DevTools pipe."""

    def __init__(self, width=1200, height=800):
        self.profile = tempfile.mkdtemp(prefix="first-paint-")
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        # Out of the way of 3 and 4 first, so that moving them there cannot overwrite one another.
        child_r, child_w = os.dup2(to_browser_r, 100), os.dup2(from_browser_w, 101)
        os.close(to_browser_r)
        os.close(from_browser_w)
        args = [chromium(), "--headless=new", "--remote-debugging-pipe", "--user-data-dir=" + self.profile, "--no-first-run",
                "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
                "--window-size=%d,%d" % (width, height), "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")

        def wire():
            os.dup2(child_r, 3)
            os.dup2(child_w, 4)

        self.process = subprocess.Popen(args, preexec_fn=wire, close_fds=False,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(child_r)
        os.close(child_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []
        target = self.send("Target.createTarget", {"url": "about:blank"}, page=False)["targetId"]
        self.session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True}, page=False)["sessionId"]
        self.send("Page.enable")
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def read(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.from_browser, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, page=True):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if page:
            message["sessionId"] = self.session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        while True:
            answer = self.read()
            if answer.get("id") == self.next_id:
                if "error" in answer:
                    raise RuntimeError("%s: %s" % (method, answer["error"]))
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, event, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            for index, message in enumerate(self.events):
                if message.get("method") == event:
                    del self.events[index]
                    return
            self.events.append(self.read())
        raise RuntimeError("no %s within %d s" % (event, timeout))

    def evaluate(self, expression):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.send("Browser.close", page=False)
        except (RuntimeError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def measure(path):
    """First contentful paint and load event of one page, in ms from the start of navigation."""
    browser = Browser()
    try:
        browser.events.clear()
        browser.send("Page.navigate", {"url": "file://" + os.path.abspath(path)})
        browser.wait_for("Page.loadEventFired")
        paint = None
        for _ in range(50):
            paint = browser.evaluate("(performance.getEntriesByName('first-contentful-paint')[0] || {}).startTime")
            if paint is not None:
                break
            time.sleep(0.1)
        load = browser.evaluate("performance.getEntriesByType('navigation')[0].loadEventEnd")
        return paint, load
    finally:
        browser.close()


def main():
    args = sys.argv[1:]
    runs = 5
    if args[:1] == ["--runs"]:
        runs, args = int(args[1]), args[2:]
    if not args:
        sys.exit(__doc__)
    for path in args:
        results = [measure(path) for _ in range(runs)]
        paints = [p for p, _ in results if p is not None]
        loads = [l for _, l in results if l is not None]
        print("%s: first contentful paint %s ms, load %s ms (median of %d; each: %s)" % (
            path, "%.0f" % statistics.median(paints) if paints else "none", "%.0f" % statistics.median(loads) if loads else "none",
            runs, ", ".join("%s/%s" % ("%.0f" % p if p is not None else "-", "%.0f" % l if l is not None else "-") for p, l in results)))


if __name__ == "__main__":
    main()
