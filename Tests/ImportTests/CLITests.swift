import DarkroomTestSupport
import Foundation
import XCTest

/// The `darkroom` command as a user runs it: exit codes, messages, JSON.
final class CLITests: XCTestCase {
    var command: DarkroomCommand!

    override func setUpWithError() throws {
        command = try DarkroomCommand(workingDirectory: ImportTests.root)
    }

    func darkroom(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try command.run(arguments)
    }

    func testBrokenPipelinePrintsCompilerStyleErrorsAndExits2() throws {
        let folder = try TemporaryFolder("cli")
        let file = folder.path("broken.yaml")
        try Data("steps:\n  - exif-date\n  - resise: { long-edge: 100 }\n".utf8).write(to: file)
        let result = try darkroom(["validate", file.path])
        XCTAssertEqual(result.status, 2)
        XCTAssertEqual(result.err, "\(file.path):3:5: error: steps[1]: unknown stage 'resise' (did you mean 'resize'?)\n  - resise: { long-edge: 100 }\n    ^\n")
    }

    func testShippedPipelinesValidate() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: ImportTests.root.appendingPathComponent("pipelines").path)
        where name.hasSuffix(".yaml") {
            let result = try darkroom(["validate", "pipelines/\(name)"])
            XCTAssertEqual(result.status, 0, "\(name): \(result.err)")
        }
    }

    /// A folder `in/` holding the sample `garden.webp` as `photoName`, and `p.yaml` of exif-date and thumbnail.
    func photoFolder(_ name: String, photoName: String = "garden.webp") throws -> (folder: TemporaryFolder, input: URL, pipeline: URL) {
        let folder = try TemporaryFolder(name)
        let input = folder.path("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ImportTests.samples.appendingPathComponent("Phone/garden.webp"),
                                         to: input.appendingPathComponent(photoName))
        let pipeline = folder.path("p.yaml")
        try Data("steps:\n  - exif-date\n  - thumbnail\n".utf8).write(to: pipeline)
        return (folder, input, pipeline)
    }

    func testRunExitCodeSaysWhetherAnythingFailed() throws {
        let (folder, input, pipeline) = try photoFolder("cli-run")
        var result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path, "--json"])
        XCTAssertEqual(result.status, 0, result.err)
        let report = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        XCTAssertEqual(report?["processed"] as? Int, 1)
        // `--json` lists each photo with its id and the files made of it (a run without a report skips the list).
        let files = try XCTUnwrap(report?["files"] as? [[String: Any]], result.out)
        XCTAssertEqual(files.map { $0["path"] as? String }, [input.appendingPathComponent("garden.webp").path])
        XCTAssertEqual((files.first?["outputs"] as? [String])?.count, 1, result.out)

        try Data([0xFF, 0xD8, 0xFF]).write(to: input.appendingPathComponent("broken.jpg"))
        result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.out.contains("1 failed"), result.out)
        XCTAssertTrue(result.out.contains("failed: \(input.appendingPathComponent("broken.jpg").path) [exif-date]: cannot read image"), result.out)

        result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path, "--dry-run"])
        XCTAssertEqual(result.status, 0)
        XCTAssertTrue(result.out.contains("skip       \(input.appendingPathComponent("garden.webp").path)"), result.out)
    }

    /// A run without a report keeps no record of each photo to its end (an import of 100,000 would
    /// hold 100,000), and still names the photos it dated with low confidence, and the next command.
    func testPhotosDatedFromTheirFileTimeAreNamedByARunWithoutAReport() throws {
        let folder = try TemporaryFolder("cli-low-confidence")
        let input = folder.path("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        for (name, seed) in [("scan 1.jpg", 1), ("scan 2.jpg", 2)] {
            let url = input.appendingPathComponent(name)
            try Fixtures.photo(url, width: 64, height: 48, seed: seed)
            _ = try Fixtures.run("touch", ["-d", "2023-12-31 18:00", url.path])
        }
        try FileManager.default.copyItem(at: ImportTests.samples.appendingPathComponent("DCIM/100CANON/IMG_0001.JPG"),
                                         to: input.appendingPathComponent("IMG_0001.JPG"))
        let pipeline = folder.path("p.yaml")
        try Data("steps:\n  - exif-date\n  - thumbnail\n".utf8).write(to: pipeline)
        let result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path, "--time-zone", "UTC"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("3 found: 3 processed"), result.out)
        XCTAssertTrue(result.out.contains("2 photos dated from their file time (low confidence): darkroom explain '\(input.path)/scan 1.jpg' shows why"),
                      result.out)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path("lib/Thumbnails/2023/12").path), "filed by the file time")
    }

    /// FFmpeg's libraries are opened when a video needs them, not linked: a run of photos never maps
    /// them (the dynamic loader's `LD_DEBUG=files` names every library it maps), a run with a video
    /// maps them and makes the video's thumbnail, and FFmpeg still prints nothing itself.
    func testFFmpegIsOpenedOnlyWhenAVideoNeedsIt() throws {
        let (folder, input, _) = try photoFolder("cli-ffmpeg")
        let pipeline = folder.path("photos-and-videos.yaml")
        try Data("inputs:\n  include: [\"**/*.{webp,mov}\"]\nsteps:\n  - exif-date\n  - thumbnail\n".utf8).write(to: pipeline)
        let arguments = ["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path]
        var result = try command.run(arguments, environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("1 found: 1 processed"), result.out)
        XCTAssertTrue(result.err.contains("file=libvips.so"), "LD_DEBUG lists the libraries mapped")
        for library in ["libavutil.so", "libavcodec.so", "libavformat.so", "libswscale.so", "libavfilter.so"] {
            XCTAssertFalse(result.err.contains("file=\(library)"), "a run of photos mapped \(library)")
        }

        try FileManager.default.copyItem(at: ImportTests.samples.appendingPathComponent("Phone/IMG_4531.MOV"),
                                         to: input.appendingPathComponent("IMG_4531.MOV"))
        result = try command.run(arguments, environment: ["LD_DEBUG": "files"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.contains("2 found: 1 processed, 1 already done"), result.out)
        XCTAssertTrue(result.err.contains("file=libavformat.so"), "the video's run opened FFmpeg")
        let linesNotFromTheLoader = result.err.split(separator: "\n").filter { !$0.hasPrefix(" ") && !$0.isEmpty }
        XCTAssertTrue(linesNotFromTheLoader.isEmpty, "FFmpeg printed nothing itself: \(linesNotFromTheLoader)")
        let thumbnails = try FileManager.default.subpathsOfDirectory(atPath: folder.path("lib/Thumbnails").path).filter { $0.hasSuffix(".jpg") }
        XCTAssertEqual(thumbnails.count, 2, "the photo's thumbnail and the video's: \(thumbnails)")
    }

    /// Exit 2 for every argument mistake, with a message naming the option; nothing is run or stored.
    func testArgumentMistakesExit2NamingTheOption() throws {
        let folder = try TemporaryFolder("cli-arguments")
        let library = folder.path("lib").path
        let cases: [([String], String)] = [
            (["--max-megapixels", "inf"], "--max-megapixels"),
            (["--max-megapixels", "nan"], "--max-megapixels"),
            (["--max-megapixels", "-5"], "--max-megapixels"),
            (["--time-zone", "Mars/Olympus"], "unknown time zone 'Mars/Olympus'"),
            (["--shard", "x/y"], "--shard"),
            (["--jobs", "0"], "--jobs"),
            (["--catalog", "mysql://somewhere"], "--catalog"),
            (["--no-such-flag"], "--no-such-flag"),
        ]
        for (extra, expected) in cases {
            let result = try darkroom(["run", "pipelines/import-camera-roll.yaml", "--input", "samples/camera-roll", "--library", library] + extra)
            XCTAssertEqual(result.status, 2, "\(extra): \(result.err)")
            XCTAssertTrue(result.err.contains(expected), "\(extra): \(result.err)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: library), "nothing ran")
        // enqueue checks the same settings before it connects to anything.
        let enqueue = try darkroom(["enqueue", "pipelines/import-camera-roll.yaml", "--library", library,
                                    "--queue", "postgres://nobody@127.0.0.1:1/none", "--max-megapixels", "inf"])
        XCTAssertEqual(enqueue.status, 2, enqueue.err)
        XCTAssertTrue(enqueue.err.contains("--max-megapixels"), enqueue.err)
        for (option, value) in [("--lease", "inf"), ("--poll", "nan"), ("--backoff", "-1")] {
            let worker = try darkroom(["worker", "--queue", "postgres://nobody@127.0.0.1:1/none", option, value])
            XCTAssertEqual(worker.status, 2, "\(option) \(value): \(worker.err)")
            XCTAssertTrue(worker.err.contains(option), worker.err)
        }
    }

    /// Exit 3 when a command could not complete (here: the library's catalog cannot be opened),
    /// distinct from 1 (some files failed), which array-job scripts count as done.
    func testACommandThatCannotCompleteExits3() throws {
        let (folder, input, pipeline) = try photoFolder("cli-incomplete")
        try FileManager.default.createDirectory(at: folder.path("lib/.darkroom/catalog.sqlite"), withIntermediateDirectories: true)
        let result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path])
        XCTAssertEqual(result.status, 3, result.err)
        XCTAssertTrue(result.err.hasPrefix("error: "), result.err)
    }

    /// A report that cannot be written after a finished run: the summary is still printed, the error
    /// says why, and the exit status tells what happened to the photos (all imported: 0), not 3.
    func testAReportThatCannotBeWrittenStillPrintsTheSummary() throws {
        let (folder, input, pipeline) = try photoFolder("cli-report")
        let report = folder.path("no-such-folder/report.json").path
        let result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path, "--report", report])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasPrefix("1 found: 1 processed"), result.out)
        XCTAssertTrue(result.err.contains("error: cannot write the report \(report)"), result.err)
    }

    /// A missing input folder (a typo, a card not mounted) is an argument error: exit 2, and no
    /// library or catalog is made; a `--library` that is a file is refused with a sentence.
    func testAMissingInputOrALibraryThatIsAFileIsRefusedAndNothingIsMade() throws {
        let (folder, _, pipeline) = try photoFolder("cli-missing")
        let library = folder.path("lib")
        var result = try darkroom(["run", pipeline.path, "--input", folder.path("no-such-card").path, "--library", library.path])
        XCTAssertEqual(result.status, 2, result.err)
        XCTAssertTrue(result.err.contains("\(folder.path("no-such-card").path) does not exist"), result.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.path), "no library is made")
        result = try darkroom(["run", pipeline.path, "--input", folder.path("no-such-card").path, "--library", library.path, "--dry-run"])
        XCTAssertEqual(result.status, 2, result.err)

        try Data("not a folder".utf8).write(to: library)
        result = try darkroom(["run", pipeline.path, "--input", folder.path("in").path, "--library", library.path])
        XCTAssertEqual(result.status, 2, result.err)
        XCTAssertTrue(result.err.contains("--library \(library.path) is a file, not a folder"), result.err)
        XCTAssertFalse(result.err.contains("NSCocoaErrorDomain"), result.err)
        for arguments in [["catalog", "verify", "--library", library.path], ["catalog", "rebuild", "--library", library.path]] {
            result = try darkroom(arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.contains("is a file, not a folder"), result.err)
        }
    }

    /// A file whose name carries an escape sequence and a newline (a shared card can hold one): the
    /// summary and the failure line show the control characters escaped, one failure on one line,
    /// nothing that retitles or colours the terminal.
    func testControlCharactersInNamesArePrintedEscaped() throws {
        let (folder, input, pipeline) = try photoFolder("cli-escape")
        let name = "evil\u{1B}]0;pwned\u{07}\u{1B}[31m\nline.jpg"
        try Data([0xFF, 0xD8, 0xFF]).write(to: input.appendingPathComponent(name))
        let result = try darkroom(["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path, "-v"])
        XCTAssertEqual(result.status, 1, result.err)
        for output in [result.out, result.err] {
            XCTAssertFalse(output.contains("\u{1B}"), output)
            XCTAssertFalse(output.contains("\u{07}"), output)
        }
        let failure = result.out.split(separator: "\n").filter { $0.contains("failed: ") }
        XCTAssertEqual(failure.count, 1, result.out)
        XCTAssertTrue(failure.first?.contains(#"evil\e]0;pwned\a\e[31m\nline.jpg [exif-date]"#) == true, result.out)
    }

    /// A folder with a photo, a video and an edit sidecar: the summary, the dry run and the JSON
    /// report account for every file, and `--verbose` lists what was passed over.
    func testEveryFileOfAFolderIsAccountedFor() throws {
        let (folder, input, pipeline) = try photoFolder("cli-accounted", photoName: "IMG_0100.webp")
        // A pipeline that makes nothing from videos (thumbnail would take them).
        try Data("steps:\n  - exif-date\n  - resize: { long-edge: 64 }\n  - heic-encode: { preset: ultrafast, output: \"{name}.heic\" }\n".utf8).write(to: pipeline)
        try Data("not really a movie".utf8).write(to: input.appendingPathComponent("IMG_0100.MOV"))
        try Data("<plist/>".utf8).write(to: input.appendingPathComponent("IMG_0100.AAE"))
        let run = ["run", pipeline.path, "--input", input.path, "--library", folder.path("lib").path]

        let plan = try darkroom(run + ["--dry-run"])
        XCTAssertEqual(plan.status, 0, plan.err)
        XCTAssertTrue(plan.out.contains("pass-over  \(input.path)/IMG_0100.MOV  (video (.MOV): this pipeline takes photos only)"), plan.out)
        XCTAssertTrue(plan.out.contains("1 input: 1 to process, 0 already done, 0 duplicates, 0 unreadable; 2 passed over"), plan.out)

        let result = try darkroom(run)
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertTrue(result.out.hasPrefix("3 found: 1 processed, 0 already done, 0 duplicates, 0 failed, "
                                           + "2 passed over: 1 .AAE edit sidecar, 1 .mov video ("), result.out)
        XCTAssertFalse(result.out.contains("passed over: \(input.path)"), "listed only with --verbose")

        let verbose = try darkroom(run + ["--verbose"])
        XCTAssertTrue(verbose.out.contains("  passed over: \(input.path)/IMG_0100.AAE: Apple edit sidecar (.AAE) of IMG_0100.webp"), verbose.out)

        let json = try darkroom(run + ["--json"])
        let report = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [String: Any])
        XCTAssertEqual(report["found"] as? Int, 3)
        let passedOver = try XCTUnwrap(report["passedOver"] as? [[String: Any]])
        XCTAssertEqual(Set(passedOver.compactMap { $0["kind"] as? String }), [".AAE edit sidecar", ".mov video"])
    }

    func testStagesListsEveryStageWithItsOptions() throws {
        let result = try darkroom(["stages"])
        XCTAssertEqual(result.status, 0)
        for name in ["exif-date", "resize", "heic-encode", "thumbnail"] { XCTAssertTrue(result.out.contains("\(name) ("), name) }
        XCTAssertTrue(result.out.contains(
            "long-edge: Longest side in pixels; smaller photos are left as they are. Accepts an integer from 1 to 65535. [default: 2048]"),
            result.out)
        let markdown = try darkroom(["stages", "--markdown"])
        XCTAssertTrue(markdown.out.contains(
            "| `long-edge` | `2048` | an integer from 1 to 65535 | Longest side in pixels; smaller photos are left as they are. |"),
            markdown.out)
    }
}

/// What the terminal shows while a run works, and what a pipe gets.
final class TerminalOutputTests: XCTestCase {
    /// A folder of `count` copies of the sample WebP, each made a different photo by a trailing byte.
    func photos(_ count: Int) throws -> (folder: TemporaryFolder, input: URL) {
        let folder = try TemporaryFolder("terminal")
        let input = folder.path("in")
        try FileManager.default.createDirectory(at: input, withIntermediateDirectories: true)
        let webp = try Data(contentsOf: ImportTests.samples.appendingPathComponent("Phone/garden.webp"))
        for index in 0..<count { try (webp + Data([UInt8(index)])).write(to: input.appendingPathComponent("photo-\(index).webp")) }
        return (folder, input)
    }

    func testTheProgressLineOnATerminalHasRateElapsedAndAnEstimate() throws {
        try Prerequisite.require(tool: "script")
        let command = try DarkroomCommand(workingDirectory: ImportTests.root)
        let (folder, input) = try photos(6)
        // `script` gives the command a pseudo-terminal; its output is what the terminal showed.
        let line = [command.binary.path, "run", "pipelines/regenerate-thumbnails.yaml", "--input", input.path,
                    "--library", folder.path("lib").path, "--jobs", "1"].map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qefc", line, "/dev/null"]
        process.currentDirectoryURL = ImportTests.root
        let out = Pipe()
        process.standardOutput = out
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { $1 }
        try process.run()
        let shown = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, shown)
        XCTAssertTrue(shown.contains("6/6 files"), shown)
        XCTAssertTrue(shown.range(of: #"\d+/6 files  [0-9.]+/s  \d+:\d\d elapsed  ~\d+:\d\d left  (exif-date|thumbnail) photo-"#,
                                  options: .regularExpression) != nil, "an estimate and the step while it works: \(shown)")
        XCTAssertTrue(shown.contains("6 found: 6 processed, 0 already done, 0 duplicates, 0 failed"), shown)
    }

    func testAPipeGetsOnlyTheSummary() throws {
        let command = try DarkroomCommand(workingDirectory: ImportTests.root)
        let (folder, input) = try photos(3)
        let result = try command.run(["run", "pipelines/regenerate-thumbnails.yaml", "--input", input.path,
                                      "--library", folder.path("lib").path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.err, "", "no progress line and no info logs on a pipe")
        XCTAssertEqual(result.out.split(separator: "\n").count, 1, result.out)
        XCTAssertTrue(result.out.hasSuffix("; 6 files written\n"), result.out)  // two sizes each
    }
}
