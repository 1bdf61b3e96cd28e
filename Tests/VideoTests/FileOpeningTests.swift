import DarkroomCore
import DarkroomTestSupport
import Foundation
import XCTest
import DarkroomModel
import DarkroomReport

/// How often a run opens each input, and whether it decodes anything: the `darkroom` binary run on
/// a Live Photo (a corpus iPhone still and its MOV) and an iPhone video of its own, under
/// `strace -f -e trace=openat` (every open of each file, by any thread), with `DecoderWatch` preloaded
/// (every codec FFmpeg opens).
///
/// The survey hashes each file and reads its header in one open; the steps share one open video per
/// item (dates, remux, poster). So a video is opened at most twice in an import, and once in a dry run,
/// which decodes nothing.
final class FileOpeningTests: XCTestCase {
    static let stillPath = "metadata-extractor-images/heic/IMG_2927.HEIC"
    static let identifier = "1745E022-9712-43C7-B024-F308EC6413CB"

    var folder: TemporaryFolder!
    var roll: URL { folder.path("roll") }
    var still: URL { roll.appendingPathComponent("IMG_2927.HEIC") }
    var livePhotoMOV: URL { roll.appendingPathComponent("IMG_2927.MOV") }
    var video: URL { roll.appendingPathComponent("IMG_0001.MOV") }

    override func setUpWithError() throws {
        try Prerequisite.require(tool: "strace")
        folder = try TemporaryFolder("file-opening")
        try FileManager.default.createDirectory(at: roll, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Corpus.file(Self.stillPath), to: still)
        try FileManager.default.copyItem(at: try Clips.livePhotoMOV(identifier: Self.identifier), to: livePhotoMOV)
        try FileManager.default.copyItem(at: try Clips.appleMOV, to: video)
        try Data(try ShippedPipeline.fastText().utf8).write(to: folder.path("import.yaml"))
    }

    func darkroom(_ arguments: [String]) throws -> TracedRun {
        try TracedRun(command: try DarkroomCommand(workingDirectory: ShippedPipeline.repository),
                      arguments: ["run", folder.path("import.yaml").path, "--input", roll.path,
                                  "--library", folder.path("library").path] + arguments,
                      watching: [still, livePhotoMOV, video], log: folder.path("openat.log"))
    }

    func testAnImportOpensEachVideoAtMostTwice() throws {
        let run = try darkroom([])
        XCTAssertEqual(run.status, 0, run.err)
        // The pair was found and both videos went where they belong: the counts are of a real import.
        let stillID = ContentHash.uuid(fromHex: try ContentHash.ofFile(still)).uuidString.lowercased()
        let videoID = ContentHash.uuid(fromHex: try ContentHash.ofFile(video)).uuidString.lowercased()
        for path in ["Photos/2020/05/\(stillID).mov", "Videos/2012/11/\(videoID).mp4", "Thumbnails/2012/11/\(videoID).jpg"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.path("library/\(path)").path), "\(path) in \(run.out)")
        }
        // Hashed and probed in one open, then opened once for every step: dates, remux plan, remux, poster.
        XCTAssertLessThanOrEqual(run.opens[video.path]!, 2, "opens of the video")
        // Hashed and probed in one open, then copied beside its still.
        XCTAssertLessThanOrEqual(run.opens[livePhotoMOV.path]!, 2, "opens of the Live Photo's MOV")
        XCTAssertFalse(run.decoders.isEmpty, "the watch sees FFmpeg's decoders (the poster's): \(run.err)")
        print("openat per file in an import: \(run.opens.map { "\(($0.key as NSString).lastPathComponent) \($0.value)" }.sorted())")
    }

    func testADryRunOpensEachFileOnceAndDecodesNothing() throws {
        let run = try darkroom(["--dry-run", "--json"])
        XCTAssertEqual(run.status, 0, run.err)
        let plan = try JSONDecoder().decode(RunPlan.self, from: Data(run.out.utf8))
        XCTAssertEqual(plan.entries.first { $0.path == livePhotoMOV.path }?.note, "Live Photo video of \(still.path)",
                       "the pair is found from the headers read in the survey")
        XCTAssertEqual(run.opens, [still.path: 1, livePhotoMOV.path: 1, video.path: 1], "hashed and probed in one open each")
        XCTAssertEqual(run.decoders, [], "no codec opened, so no frame decoded")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path("library").path), "a dry run writes nothing")
    }
}

/// A `darkroom` command run under `strace -f -e trace=openat`, with `DecoderWatch` preloaded.
struct TracedRun {
    let status: Int32
    let out: String
    let err: String
    /// How many times each watched file was opened (`openat`, by any thread, failed or not).
    let opens: [String: Int]
    /// The codecs FFmpeg opened, `decoder h264` or `encoder libx264`, in order.
    let decoders: [String]

    init(command: DarkroomCommand, arguments: [String], watching files: [URL], log: URL) throws {
        let watch = try DecoderWatch.library
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["strace", "-f", "-qq", "-e", "trace=openat", "-s", "4096", "-o", log.path,
                             "-E", "LD_PRELOAD=\(watch.path)", command.binary.path] + arguments
        process.currentDirectoryURL = command.workingDirectory
        // Output to files, not pipes: nothing to drain while the command runs.
        let outFile = log.appendingPathExtension("out"), errFile = log.appendingPathExtension("err")
        for file in [outFile, errFile] { FileManager.default.createFile(atPath: file.path, contents: nil) }
        let outHandle = try FileHandle(forWritingTo: outFile), errHandle = try FileHandle(forWritingTo: errFile)
        defer { try? outHandle.close(); try? errHandle.close() }
        process.standardOutput = outHandle
        process.standardError = errHandle
        try process.run()
        process.waitUntilExit()
        status = process.terminationStatus
        out = try String(contentsOf: outFile, encoding: .utf8)
        let stderr = try String(contentsOf: errFile, encoding: .utf8)
        err = stderr
        decoders = stderr.split(separator: "\n").filter { $0.hasPrefix(DecoderWatch.prefix) }.map { String($0.dropFirst(DecoderWatch.prefix.count)) }
        // A call interrupted by another thread's is split over two lines; its path is on the first.
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        opens = Dictionary(uniqueKeysWithValues: files.map { file in
            (file.path, lines.filter { $0.contains("openat(") && $0.contains("\"\(file.path)\"") }.count)
        })
    }
}

/// A tiny library preloaded into `darkroom` that wraps FFmpeg's `avcodec_open2` (through which every
/// decoder and encoder is opened, FFmpeg's own probing decoders included: no frame is decoded
/// without one) and writes a line to standard error for each codec opened. Built once per test run
/// with the toolchain's C compiler against Debian's FFmpeg headers.
enum DecoderWatch {
    static let prefix = "decoder-watch: "

    static let source = """
        #define _GNU_SOURCE
        #include <dlfcn.h>
        #include <stdio.h>
        #include <libavcodec/avcodec.h>

        int avcodec_open2(AVCodecContext *context, const AVCodec *codec, AVDictionary **options) {
            static int (*real)(AVCodecContext *, const AVCodec *, AVDictionary **);
            if (!real) real = dlsym(RTLD_NEXT, "avcodec_open2");
            const AVCodec *opened = codec ? codec : context->codec;
            dprintf(2, "\(prefix)%s %s\\n", opened && av_codec_is_encoder(opened) ? "encoder" : "decoder",
                    opened ? opened->name : "unknown");
            return real(context, codec, options);
        }
        """

    /// The built library (built on first use).
    static var library: URL {
        get throws { try built.get() }
    }

    private static let built = Result { () throws -> URL in
        let folder = Clips.folder
        let source = folder.path("decoder-watch.c"), library = folder.path("libdecoder-watch.so")
        try Data(Self.source.utf8).write(to: source)
        try Prerequisite.require(tool: "clang")
        let flags = try Fixtures.run("pkg-config", ["--cflags", "--libs", "libavcodec"])
            .split(whereSeparator: \.isWhitespace).map(String.init)
        _ = try Fixtures.run("clang", ["-shared", "-fPIC", "-o", library.path, source.path] + flags + ["-ldl"])
        return library
    }
}
