import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`: the
/// browser reads commands on file descriptor 3 and writes answers and events on 4, each message
/// JSON ended by a NUL), with one page open. Every console message, uncaught exception, failed
/// request and log entry the page produces is collected for the test to check.
///
///     let browser = try HeadlessBrowser.start(profile: folder.path("chromium"))
///     try browser.open(URL(fileURLWithPath: ".../gallery/index.html"))
///     let count = try browser.evaluate("document.images.length") as? Int
// Sendable: every var is only reached under `lock` (its JSON messages, [String: Any], cannot be a Mutex's state).
public final class HeadlessBrowser: @unchecked Sendable {
    /// A message the page produced that a test may object to.
    public struct Problem: CustomStringConvertible, Sendable {
        /// `console.error`, `exception`, `request failed`, `log error`.
        public var kind: String
        public var text: String
        public var description: String { "\(kind): \(text)" }
    }

    private let pid: pid_t
    private let commands: Int32
    private let answers: Int32
    private let lock = NSCondition()
    private var messages: [[String: Any]] = []
    private var closed = false
    private var nextID = 0
    private var session = ""
    /// Everything the page objected to so far (cleared by `takeProblems`).
    private var problems: [Problem] = []
    private var loads = 0

    /// The Chromium binary: `$CHROMIUM`, else `chromium`, `chromium-browser` or `google-chrome` on the PATH.
    public static func binary() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["CHROMIUM"], !chosen.isEmpty { return chosen }
        let folders = (environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") { return "\(folder)/\(name)" }
        }
        return nil
    }

    /// Starts Chromium with a fresh profile in `profile` and opens a blank page of `width` x `height`
    /// CSS pixels. Throws `Prerequisite.missing` (a skip, or a failure under CI) when Chromium is
    /// not installed or cannot start.
    public static func start(profile: URL, width: Int = 1200, height: Int = 800) throws -> HeadlessBrowser {
        guard let binary = binary() else {
            throw Prerequisite.missing("Chromium is not installed (scripts/setup.sh --tests installs Debian's chromium)")
        }
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        var arguments = [binary, "--headless=new", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)", "--no-first-run",
                         "--no-default-browser-check", "--disable-gpu", "--disable-dev-shm-usage", "--mute-audio", "--hide-scrollbars",
                         "--autoplay-policy=no-user-gesture-required", "--force-color-profile=srgb", "--disable-extensions",
                         "--window-size=\(width),\(height)", "about:blank"]
        if getuid() == 0 { arguments.insert("--no-sandbox", at: 1) }
        let browser: HeadlessBrowser
        do {
            browser = try HeadlessBrowser(arguments: arguments, log: profile.appendingPathComponent("chromium.log"))
            try browser.attach(width: width, height: height)
        } catch let error as BrowserError {
            throw Prerequisite.missing("Chromium cannot start: \(error)")
        }
        return browser
    }

    private init(arguments: [String], log: URL) throws {
        var toBrowser: [Int32] = [0, 0], fromBrowser: [Int32] = [0, 0]
        guard pipe(&toBrowser) == 0, pipe(&fromBrowser) == 0 else { throw BrowserError("cannot make pipes: \(String(cString: strerror(errno)))") }
        // The child's ends go above 9 first, so that moving them to 3 and 4 cannot overwrite each other.
        let childRead = fcntl(toBrowser[0], F_DUPFD, 10), childWrite = fcntl(fromBrowser[1], F_DUPFD, 10)
        close(toBrowser[0]); close(fromBrowser[1])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, childRead, 3)
        posix_spawn_file_actions_adddup2(&actions, childWrite, 4)
        posix_spawn_file_actions_addclose(&actions, toBrowser[1])
        posix_spawn_file_actions_addclose(&actions, fromBrowser[0])
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, arguments[0], &actions, nil, argv, environ)
        close(childRead); close(childWrite)
        guard status == 0 else {
            close(toBrowser[1]); close(fromBrowser[0])
            throw BrowserError("cannot run \(arguments[0]): \(String(cString: strerror(status)))")
        }
        pid = child
        commands = toBrowser[1]
        answers = fromBrowser[0]
        signal(SIGPIPE, SIG_IGN)
        let reader = Thread { [weak self, answers] in
            HeadlessBrowser.read(answers, deliver: { self?.received($0) }, ended: { self?.ended() })
        }
        reader.start()
    }

    deinit { quit() }

    /// Closes the browser and waits for it to exit.
    public func quit() {
        lock.lock()
        let wasClosed = closed
        closed = true
        lock.unlock()
        guard !wasClosed else { return }
        _ = try? send("Browser.close", [:], toPage: false, timeout: 5)
        close(commands)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid { close(answers); return }
            usleep(100_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
        close(answers)
    }

    // MARK: Pages

    /// Opens `url` in the page and waits for its `load` event (images that load lazily may still be coming).
    public func open(_ url: URL, timeout: TimeInterval = 30) throws {
        let before = loadCount
        _ = try send("Page.navigate", ["url": url.absoluteString])
        try waitForLoad(after: before, timeout: timeout)
    }

    /// Runs `action` (a click on a link, say) and waits for the page it leads to to load.
    public func waitingForNavigation(timeout: TimeInterval = 30, _ action: () throws -> Void) throws {
        let before = loadCount
        try action()
        try waitForLoad(after: before, timeout: timeout)
    }

    /// The value of a JavaScript expression in the page (awaited when it is a promise), as JSON
    /// values become in Foundation (`Int`, `Double`, `String`, `Bool`, arrays, dictionaries, `NSNull`).
    public func evaluate(_ expression: String) throws -> Any? {
        let result = try send("Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
        if let exception = result["exceptionDetails"] as? [String: Any] {
            throw BrowserError("\(expression) threw: \(HeadlessBrowser.describe(exception))")
        }
        return (result["result"] as? [String: Any])?["value"]
    }

    /// Waits until `expression` is true in the page; throws, naming `what`, when it is not within `timeout`.
    public func waitUntil(_ expression: String, _ what: String, timeout: TimeInterval = 15) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try evaluate(expression) as? Bool == true { return }
            usleep(100_000)
        }
        throw BrowserError("timed out after \(Int(timeout)) s waiting for \(what) (\(expression))")
    }

    /// Presses a key on the focused element: `Enter`, `ArrowRight`, `ArrowLeft`, `Escape`.
    public func press(_ key: String) throws {
        let codes = ["Enter": 13, "ArrowLeft": 37, "ArrowRight": 39, "Escape": 27, "Tab": 9]
        var event: [String: Any] = ["key": key, "code": key, "windowsVirtualKeyCode": codes[key] ?? 0]
        if key == "Enter" { event["text"] = "\r" }
        _ = try send("Input.dispatchKeyEvent", event.merging(["type": "keyDown"]) { $1 })
        _ = try send("Input.dispatchKeyEvent", event.merging(["type": "keyUp"]) { $1 })
    }

    /// Moves the mouse over the centre of the first element `selector` matches (hover).
    public func hover(_ selector: String) throws {
        guard let box = try evaluate("""
            (() => { const e = document.querySelector(\(HeadlessBrowser.literal(selector))); if (!e) return null;
                     e.scrollIntoView({block: "center"}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()
            """) as? [Double] else { throw BrowserError("nothing matches \(selector) to hover over") }
        _ = try send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": box[0], "y": box[1]])
    }

    /// Emulates the system's colour scheme (`light` or `dark`) for `prefers-color-scheme`.
    public func emulateColourScheme(_ scheme: String) throws {
        _ = try send("Emulation.setEmulatedMedia", ["features": [["name": "prefers-color-scheme", "value": scheme]]])
    }

    /// Saves what the page shows as a PNG at `url`.
    public func screenshot(to url: URL) throws {
        let result = try send("Page.captureScreenshot", ["format": "png"])
        guard let text = result["data"] as? String, let data = Data(base64Encoded: text) else { throw BrowserError("no screenshot data") }
        try data.write(to: url)
    }

    /// The problems the page reported since the last call, and forgets them.
    public func takeProblems() -> [Problem] {
        lock.lock(); defer { lock.unlock() }
        let taken = problems
        problems = []
        return taken
    }

    /// A JavaScript string literal of `text`.
    public static func literal(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: [text], options: [.fragmentsAllowed]), as: UTF8.self)
            .dropFirst().dropLast().description
    }

    // MARK: Protocol

    private var loadCount: Int { lock.lock(); defer { lock.unlock() }; return loads }

    private func waitForLoad(after count: Int, timeout: TimeInterval) throws {
        lock.lock(); defer { lock.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while loads <= count {
            guard !closed, lock.wait(until: deadline) else { throw BrowserError("the page did not finish loading within \(Int(timeout)) s") }
        }
    }

    /// Creates the page, attaches to it and turns on the events tests watch.
    private func attach(width: Int, height: Int) throws {
        let target = try send("Target.createTarget", ["url": "about:blank"], toPage: false)
        guard let targetID = target["targetId"] as? String else { throw BrowserError("no page target: \(target)") }
        let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true], toPage: false)
        guard let id = attached["sessionId"] as? String else { throw BrowserError("cannot attach to the page: \(attached)") }
        lock.lock(); session = id; lock.unlock()
        for domain in ["Page", "Runtime", "Network", "Log"] { _ = try send("\(domain).enable") }
        _ = try send("Emulation.setDeviceMetricsOverride", ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false])
    }

    /// Sends a command (to the page's session, or to the browser) and returns its result.
    @discardableResult
    public func send(_ method: String, _ parameters: [String: Any] = [:], toPage: Bool = true, timeout: TimeInterval = 30) throws -> [String: Any] {
        lock.lock()
        nextID += 1
        let id = nextID, session = self.session
        lock.unlock()
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if toPage { message["sessionId"] = session }
        var data = try JSONSerialization.data(withJSONObject: message)
        data.append(0)
        let written = data.withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
        guard written == data.count else { throw BrowserError("cannot send \(method): the browser has gone") }
        lock.lock(); defer { lock.unlock() }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let index = messages.firstIndex(where: { $0["id"] as? Int == id }) {
                let answer = messages.remove(at: index)
                if let error = answer["error"] as? [String: Any] { throw BrowserError("\(method): \(error["message"] ?? error)") }
                return answer["result"] as? [String: Any] ?? [:]
            }
            guard lock.wait(until: deadline) else { throw BrowserError("\(method) got no answer within \(Int(timeout)) s") }
        }
    }

    /// The browser closed its end of the pipe: it has exited.
    private func ended() {
        lock.lock(); closed = true; lock.broadcast(); lock.unlock()
    }

    /// Files one message from the browser: an answer for `send`, or an event.
    private func received(_ message: [String: Any]) {
        lock.lock(); defer { lock.broadcast(); lock.unlock() }
        if message["id"] != nil { messages.append(message); return }
        let parameters = message["params"] as? [String: Any] ?? [:]
        switch message["method"] as? String {
        case "Page.loadEventFired": loads += 1
        case "Runtime.exceptionThrown":
            problems.append(Problem(kind: "exception", text: HeadlessBrowser.describe(parameters["exceptionDetails"] as? [String: Any] ?? [:])))
        case "Runtime.consoleAPICalled" where ["error", "assert"].contains(parameters["type"] as? String):
            let arguments = (parameters["args"] as? [[String: Any]] ?? []).map { "\($0["value"] ?? $0["description"] ?? "")" }
            problems.append(Problem(kind: "console.error", text: arguments.joined(separator: " ")))
        case "Network.loadingFailed":
            problems.append(Problem(kind: "request failed", text: "\(parameters["errorText"] ?? "") (request \(parameters["requestId"] ?? ""))"))
        case "Log.entryAdded":
            let entry = parameters["entry"] as? [String: Any] ?? [:]
            if entry["level"] as? String == "error" {
                problems.append(Problem(kind: "log error", text: "\(entry["text"] ?? "") \(entry["url"] ?? "")"))
            }
        default: break
        }
    }

    private static func describe(_ exception: [String: Any]) -> String {
        let detail = (exception["exception"] as? [String: Any])?["description"] as? String
        return detail ?? exception["text"] as? String ?? "\(exception)"
    }

    /// Reads NUL-separated JSON messages from `descriptor` until it closes.
    private static func read(_ descriptor: Int32, deliver: ([String: Any]) -> Void, ended: () -> Void) {
        var pending = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { ended(); return }
            pending.append(contentsOf: buffer[0..<count])
            while let end = pending.firstIndex(of: 0) {
                let message = pending[pending.startIndex..<end]
                pending = Data(pending[pending.index(after: end)...])
                if let object = (try? JSONSerialization.jsonObject(with: message)) as? [String: Any] { deliver(object) }
            }
        }
    }
}

/// The browser could not be started or did not answer.
public struct BrowserError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
