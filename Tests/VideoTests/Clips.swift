import DarkroomTestSupport
import Foundation
import XCTest

/// Test clips made on the spot with the ffmpeg CLI (small frames, `-preset ultrafast`, a few
/// seconds each), named for what they test. Made once per test run in one folder.
enum Clips {
    /// Where the clips are written; removed when the test bundle finishes.
    static let folder: TemporaryFolder = {
        do {
            let folder = try TemporaryFolder("video-clips")
            XCTestObservationCenter.shared.addTestObserver(RemoveWhenFinished(folder: folder.url))
            return folder
        } catch {
            fatalError("cannot make a temporary folder: \(error)")
        }
    }()

    private static let lock = NSRecursiveLock()  // a clip may be made from another
    // nonisolated(unsafe): only reached while `lock` is held (a Mutex would not let a clip's maker ask for another clip).
    nonisolated(unsafe) private static var made: [String: URL] = [:]

    /// The clip `name`, made by `make` the first time it is asked for.
    static func clip(_ name: String, _ make: (URL) throws -> Void) throws -> URL {
        lock.lock(); defer { lock.unlock() }
        if let url = made[name] { return url }
        let url = folder.path(name)
        try make(url)
        made[name] = url
        return url
    }

    /// A blue frame with a red block in its top-left corner (a quarter of each side), so a turn
    /// or a mirror shows.
    static func cornerMarked(width: Int = 320, height: Int = 240, rate: Int = 30, seconds: Double) -> String {
        "color=c=0x3060c0:s=\(width)x\(height):r=\(rate):d=\(seconds),drawbox=x=0:y=0:w=\(width / 4):h=\(height / 4):color=red:t=fill"
    }

    /// Colour bars and gradients, for judging colour (saturation, brightness).
    static func bars(seconds: Double) -> String { "testsrc2=s=320x240:r=30:d=\(seconds)" }

    static func ffmpeg(_ arguments: [String]) throws {
        try Fixtures.run("ffmpeg", ["-v", "error", "-y"] + arguments)
    }

    /// The taken-by-iPhone case: H.264 in a QuickTime MOV with AAC sound and Apple's keys.
    static var appleMOV: URL {
        get throws {
            try clip("IMG_0001.MOV") { url in
                try ffmpeg(["-f", "lavfi", "-i", cornerMarked(seconds: 3), "-f", "lavfi", "-i", "sine=f=440:d=3",
                            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
                            "-movflags", "use_metadata_tags",
                            "-metadata", "com.apple.quicktime.creationdate=2012-11-26T15:33:10-0800",
                            "-metadata", "com.apple.quicktime.make=Apple", "-metadata", "com.apple.quicktime.model=iPhone 5",
                            "-metadata", "com.apple.quicktime.location.ISO6709=+37.7858-122.4064+010.000/",
                            "-metadata", "com.apple.quicktime.content.identifier=5C2E8C54-0C3D-4DB4-9E2F-7F3A1C1B2A10",
                            "-metadata", "creation_time=2012-11-26T23:33:10Z", url.path])
            }
        }
    }

    /// HEVC tagged `hvc1` (what Apple players need) in a MOV.
    static var hevcMOV: URL {
        get throws {
            try clip("IMG_0002.MOV") { url in
                try ffmpeg(["-f", "lavfi", "-i", cornerMarked(seconds: 2.5), "-c:v", "libx265", "-preset", "ultrafast",
                            "-x265-params", "log-level=error", "-pix_fmt", "yuv420p", "-tag:v", "hvc1",
                            "-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.creationdate=2023-06-01T09:15:00+0200",
                            url.path])
            }
        }
    }

    /// `appleMOV` with a display matrix asking for a turn: FFmpeg 5.1 writes `rotate=90` as a
    /// matrix its players show turned a quarter counter-clockwise (270° clockwise), and `rotate=270`
    /// as the quarter clockwise a portrait iPhone clip has.
    static func rotatedMOV(rotate: Int) throws -> URL {
        try clip("rotated-\(rotate).MOV") { url in
            try ffmpeg(["-i", try appleMOV.path, "-c", "copy", "-map", "0", "-movflags", "use_metadata_tags",
                        "-map_metadata", "0", "-metadata:s:v", "rotate=\(rotate)", url.path])
        }
    }

    /// The colour bars as an iPhone would record them in HDR: converted to HLG, BT.2020, 10-bit
    /// HEVC, tagged so.
    static var hlgMOV: URL {
        get throws {
            try clip("hlg.MOV") { url in
                try ffmpeg(["-f", "lavfi", "-i", bars(seconds: 2.5),
                            "-vf", "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=arib-std-b67:p=bt2020:m=bt2020nc:r=tv:npl=100,format=yuv420p10le",
                            "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                            "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc", url.path])
            }
        }
    }

    /// The same colour bars in SDR BT.709, 8-bit: what the HLG poster should look like.
    static var sdrBarsMOV: URL {
        get throws {
            try clip("sdr-bars.MOV") { url in
                try ffmpeg(["-f", "lavfi", "-i", bars(seconds: 2.5), "-c:v", "libx264", "-preset", "ultrafast",
                            "-pix_fmt", "yuv420p", "-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709", url.path])
            }
        }
    }

    /// An Android phone's MP4: H.264 and AAC with only the container's `creation_time` (UTC) and a location.
    static var androidMP4: URL {
        get throws {
            try clip("VID_clip.mp4") { url in
                try ffmpeg(["-f", "lavfi", "-i", cornerMarked(seconds: 2.5), "-f", "lavfi", "-i", "sine=f=330:d=2.5",
                            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest",
                            "-metadata", "creation_time=2023-07-14T22:30:00Z", "-metadata", "location=+48.8584+002.2945/", url.path])
            }
        }
    }

    /// An MP4 with sound and no picture.
    static var audioOnlyMP4: URL {
        get throws {
            try clip("voice-memo.mp4") { url in
                try ffmpeg(["-f", "lavfi", "-i", "sine=f=440:d=1", "-c:a", "aac", url.path])
            }
        }
    }

    /// A MOV cut short before its `moov` box (written last without fast start): a recording
    /// that was never finished.
    static var truncatedMOV: URL {
        get throws {
            try clip("truncated.MOV") { url in
                let whole = try appleMOV
                try Fixtures.truncated(whole, to: url, bytes: Int(try FileManager.default.attributesOfItem(atPath: whole.path)[.size] as! NSNumber) / 2)
            }
        }
    }

    /// A file of no bytes with a video's name.
    static var emptyMOV: URL {
        get throws {
            try clip("empty.MOV") { url in FileManager.default.createFile(atPath: url.path, contents: Data()) }
        }
    }

    /// A text file named like a video.
    static var notAVideo: URL {
        get throws {
            try clip("notes.mp4") { url in try Data("shopping list: milk, eggs\n".utf8).write(to: url) }
        }
    }

    /// A clip under two seconds whose first half is green and second half blue: its poster is its
    /// first frame.
    static var shortClip: URL {
        get throws {
            try clip("short.MOV") { url in
                try ffmpeg(["-f", "lavfi", "-i", "color=c=green:s=320x240:r=30:d=1,drawbox=x=0:y=0:w=iw:h=ih:color=blue:t=fill:enable='gte(t,0.5)'",
                            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", url.path])
            }
        }
    }

    /// Four seconds of orange that fades in from black at 1.5 s: the frame at 1 s is black.
    static var fadeFromBlack: URL {
        get throws {
            try clip("fade.MOV") { url in
                try ffmpeg(["-f", "lavfi", "-i", "color=c=orange:s=320x240:r=30:d=4,fade=t=in:st=1.5:d=0.1",
                            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", url.path])
            }
        }
    }

    /// An AVCHD camera's MPEG-TS: H.264 with AC-3 sound, timestamps starting at 1.4 s, one key frame
    /// (seeking lands on frames that need it). Green for half a second, then blue.
    static var cameraMTS: URL {
        get throws {
            try clip("00001.MTS") { url in
                try ffmpeg(["-f", "lavfi", "-i", "color=c=green:s=320x240:r=25:d=3,drawbox=x=0:y=0:w=iw:h=ih:color=blue:t=fill:enable='gte(t,0.5)'",
                            "-f", "lavfi", "-i", "sine=f=440:d=3", "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
                            "-c:a", "ac3", "-shortest", url.path])
            }
        }
    }

    /// An AVCHD camcorder's clip as a Sony or Panasonic writes it: an H.264 MPEG-TS whose stream
    /// carries the recording date in an MDPM SEI message before the first picture (15 March 2024,
    /// 10:42:17 at UTC+1, the camera's clock), and no date anywhere else; its file time is 2026.
    static var camcorderMTS: URL {
        get throws {
            try clip("00002.MTS") { url in
                let plain = url.deletingPathExtension().appendingPathExtension("h264")
                try ffmpeg(["-f", "lavfi", "-i", "testsrc=s=160x120:r=25:d=0.4", "-c:v", "libx264", "-preset", "ultrafast",
                            "-bsf:v", "filter_units=remove_types=6", "-f", "h264", plain.path])
                var stream = try Data(contentsOf: plain)
                let picture = try XCTUnwrap(stream.range(of: Data([0, 0, 1, 0x65])), "no IDR picture in the H.264 stream")
                let uuid: [UInt8] = [0x17, 0xEE, 0x8C, 0x60, 0xF8, 0x4D, 0x11, 0xD9, 0x8C, 0xD6, 0x08, 0x00, 0x20, 0x0C, 0x9A, 0x66]
                let entries: [UInt8] = [0x02, 0x18, 0x02, 0x20, 0x24, 0x03, 0x19, 0x15, 0x10, 0x42, 0x17]  // +01:00, 2024-03 / 15 10:42:17
                let message = uuid + Array("MDPM".utf8) + entries
                stream.insert(contentsOf: [0, 0, 1, 0x06, 0x05, UInt8(message.count)] + message + [0x80], at: picture.lowerBound)
                try stream.write(to: plain)
                try ffmpeg(["-f", "h264", "-i", plain.path, "-c", "copy", "-f", "mpegts", url.path])
                try FileManager.default.removeItem(at: plain)
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_790_000_000)], ofItemAtPath: url.path)
            }
        }
    }

    /// A camera's AVI: Motion JPEG, 30 frames.
    static var cameraAVI: URL {
        get throws {
            try clip("MVI_0001.AVI") { url in
                try ffmpeg(["-f", "lavfi", "-i", cornerMarked(seconds: 1), "-c:v", "mjpeg", "-q:v", "5", url.path])
            }
        }
    }

    /// `cameraAVI` with frames 10 to 13 overwritten with zeros (after their JPEG start marker).
    static var corruptedAVI: URL {
        get throws { try clip("MVI_0002.AVI") { url in try zeroingPackets(of: try cameraAVI, to: url) { (10..<14).contains($0) } } }
    }

    /// `cameraAVI` with every frame overwritten: nothing decodes.
    static var undecodableAVI: URL {
        get throws { try clip("MVI_0003.AVI") { url in try zeroingPackets(of: try cameraAVI, to: url) { _ in true } } }
    }

    /// Copies `source` with the bytes of the video packets `which` selects set to zero, but their first two.
    private static func zeroingPackets(of source: URL, to url: URL, _ which: (Int) -> Bool) throws {
        let listing = try Fixtures.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pos,size",
                                                   "-of", "csv=p=0", source.path])
        var data = try Data(contentsOf: source)
        for (index, line) in listing.split(separator: "\n").enumerated() where which(index) {
            let fields = line.split(separator: ",").compactMap { Int($0) }
            guard fields.count == 2 else { throw FixtureError("unexpected ffprobe line '\(line)'") }
            let (size, position) = (fields[0], fields[1])
            data.replaceSubrange(position + 2..<position + size, with: Data(count: size - 2))
        }
        try data.write(to: url)
    }

    /// A MOV with PCM sound (as many cameras write): PCM cannot go in an MP4.
    static var pcmMOV: URL {
        get throws {
            try clip("MVI_0004.MOV") { url in
                try ffmpeg(["-f", "lavfi", "-i", cornerMarked(seconds: 2.5), "-f", "lavfi", "-i", "sine=f=440:d=2.5",
                            "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "pcm_s16le", "-shortest",
                            "-metadata", "creation_time=2021-05-09T08:00:00Z", url.path])
            }
        }
    }

    /// A portrait iPhone HDR clip: the corner-marked frame in HLG 10-bit HEVC, turned a quarter
    /// clockwise by its display matrix, with AAC sound and Apple's creation date.
    static var hdrPortraitMOV: URL {
        get throws {
            try clip("IMG_0003.MOV") { url in
                let upright = folder.path("hdr-unrotated.MOV")
                try ffmpeg(["-f", "lavfi", "-i", cornerMarked(seconds: 2.5), "-f", "lavfi", "-i", "sine=f=440:d=2.5",
                            "-vf", "zscale=tin=bt709:min=bt709:pin=bt709:rin=tv:t=arib-std-b67:p=bt2020:m=bt2020nc:r=tv:npl=100,format=yuv420p10le",
                            "-c:v", "libx265", "-preset", "ultrafast", "-x265-params", "log-level=error", "-tag:v", "hvc1",
                            "-color_primaries", "bt2020", "-color_trc", "arib-std-b67", "-colorspace", "bt2020nc",
                            "-c:a", "aac", "-shortest", upright.path])
                // FFmpeg 5.1 writes `rotate` as a display matrix only when copying streams.
                try ffmpeg(["-i", upright.path, "-map", "0", "-c", "copy", "-metadata:s:v", "rotate=270", "-movflags", "use_metadata_tags",
                            "-metadata", "com.apple.quicktime.creationdate=2024-03-10T18:45:00-0700", url.path])
            }
        }
    }

    /// An MP4 already laid out for streaming (`moov` before `mdat`).
    static var fastStartMP4: URL {
        get throws {
            try clip("fast-start.mp4") { url in
                try ffmpeg(["-i", try androidMP4.path, "-c", "copy", "-movflags", "+faststart", url.path])
            }
        }
    }

    /// An MP4 whose clock was never set: `creation_time` is the Unix epoch. Its name carries a date.
    static var epochMP4: URL {
        get throws {
            try clip("VID_20210305_101112.mp4") { url in
                try ffmpeg(["-f", "lavfi", "-i", cornerMarked(seconds: 1), "-c:v", "libx264", "-preset", "ultrafast",
                            "-pix_fmt", "yuv420p", "-movflags", "use_metadata_tags", "-metadata", "creation_time=1970-01-01T00:00:00Z",
                            url.path])
            }
        }
    }

    /// A 16K video's header: a small H.264 MOV whose sample entry and track header say 16384x8640.
    static var header16K: URL {
        get throws {
            try clip("16k.MOV") { url in
                try ffmpeg(["-f", "lavfi", "-i", cornerMarked(seconds: 0.5), "-c:v", "libx264", "-preset", "ultrafast",
                            "-pix_fmt", "yuv420p", url.path])
                var data = try Data(contentsOf: url)
                func put16(_ value: Int, at offset: Int) { data[offset] = UInt8(value >> 8); data[offset + 1] = UInt8(value & 0xFF) }
                guard let entry = data.range(of: Data("avc1".utf8)), let header = data.range(of: Data("tkhd".utf8)) else {
                    throw FixtureError("no avc1 sample entry or tkhd box in \(url.path)")
                }
                // avc1: 6 reserved, 2 data reference index, 16 pre-defined and reserved, then width and height.
                put16(16384, at: entry.lowerBound + 28)
                put16(8640, at: entry.lowerBound + 30)
                // tkhd ends with width and height in 16.16 fixed point.
                let size = data[header.lowerBound - 4..<header.lowerBound].reduce(0) { $0 << 8 | Int($1) }
                let end = header.lowerBound - 4 + size
                put16(16384, at: end - 8)
                put16(8640, at: end - 4)
                try data.write(to: url)
            }
        }
    }
}

/// Removes a folder when the test bundle has finished (static folders are never deinitialised).
private final class RemoveWhenFinished: NSObject, XCTestObservation {
    let folder: URL
    init(folder: URL) { self.folder = folder }
    func testBundleDidFinish(_ testBundle: Bundle) { try? FileManager.default.removeItem(at: folder) }
}

extension Clips {
    /// A Live Photo's motion half: a short HEVC MOV carrying Apple's content identifier `identifier`
    /// (the still's maker note has the same), with the creation date the MOV of a Live Photo has.
    static func livePhotoMOV(identifier: String, name: String = "IMG_2927.MOV") throws -> URL {
        try clip("live-\(identifier)-\(name)") { url in
            try ffmpeg(["-f", "lavfi", "-i", cornerMarked(seconds: 1.5), "-c:v", "libx265", "-preset", "ultrafast",
                        "-x265-params", "log-level=error", "-tag:v", "hvc1", "-pix_fmt", "yuv420p",
                        "-movflags", "use_metadata_tags",
                        "-metadata", "com.apple.quicktime.content.identifier=\(identifier)",
                        "-metadata", "com.apple.quicktime.creationdate=2020-05-04T18:39:09-0400",
                        "-f", "mov", url.path])
        }
    }
}
