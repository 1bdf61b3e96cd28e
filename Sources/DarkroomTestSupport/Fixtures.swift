import DarkroomVips
import Foundation
import XCTest

/// Test images made on the spot, named for what they test.
public enum Fixtures {
    /// Runs a command-line tool (ImageMagick, exiftool, ffprobe...) and returns its standard output;
    /// fails the test with its standard error when it exits non-zero.
    @discardableResult
    public static func run(_ tool: String, _ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw FixtureError("\(tool) \(arguments.joined(separator: " ")) failed: \(String(decoding: errors, as: UTF8.self))")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A JPEG whose left half is red and right half blue (so rotations and mirrors are visible),
    /// with EXIF tags set by exiftool (e.g. `["-Orientation#=6", "-DateTimeOriginal=2024:01:02 03:04:05"]`).
    public static func halves(_ url: URL, width: Int = 640, height: Int = 480, exif: [String] = []) throws {
        try run("convert", ["-size", "\(width / 2)x\(height)", "xc:#ff0000", "-size", "\(width - width / 2)x\(height)", "xc:#0000ff",
                            "+append", "-quality", "92", url.path])
        if !exif.isEmpty { try run("exiftool", ["-q", "-overwrite_original"] + exif + [url.path]) }
    }

    /// A plain JPEG (quality 95) of `colour`, with a one-pixel marker in the top-left corner whose
    /// colour comes from `number`: files made with different numbers differ, since the runner passes
    /// byte-identical duplicates over.
    public static func solid(_ url: URL, colour: Colour, width: Int, height: Int, number: Int) throws {
        let marker = Colour(red: Double(number * 37 % 256), green: Double(number * 91 % 256), blue: Double(number * 53 % 256))
        try NativeLibraries.start()
        try Image.solid(width: width, height: height, colour: colour)
            .drawingRectangles([(x: 0, y: 0, width: 1, height: 1)], colour: marker)
            .write(to: url.path, as: .jpeg(quality: 95))
    }

    /// A photographic-looking JPEG (plasma, gradient, noise) for encoder measurements.
    public static func photo(_ url: URL, width: Int, height: Int, seed: Int = 1, exif: [String] = []) throws {
        try run("convert", ["-seed", "\(seed)", "-size", "\(width)x\(height)", "plasma:green-brown",
                            "-attenuate", "0.3", "+noise", "Gaussian", "-quality", "90", url.path])
        if !exif.isEmpty { try run("exiftool", ["-q", "-overwrite_original"] + exif + [url.path]) }
    }

    /// The first `bytes` bytes of a file: a truncated copy.
    public static func truncated(_ source: URL, to destination: URL, bytes: Int) throws {
        let data = try Data(contentsOf: source)
        try data.prefix(bytes).write(to: destination)
    }

    /// The mean RGB of a region of an image file, decoded with libvips.
    public static func meanColour(of url: URL, x: Int, y: Int, width: Int, height: Int) throws -> [Double] {
        try NativeLibraries.start()
        let image = try Image.open(url.path).cropped(left: x, top: y, width: width, height: height)
        return try (0..<3).map { band in try image.extractBand(band).average() }
    }
}

/// A fixture could not be made.
public struct FixtureError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
