import Foundation

/// How an entry's bytes are stored.
public enum ZipCompression: Sendable {
    /// As they are (method 0): photos and videos, which deflate cannot shrink.
    case store
    /// Deflated (method 8) when that makes them smaller, else stored: small text (XMP, JSON).
    case deflate
}

/// Writes a ZIP archive entry by entry, streaming: each entry's bytes go to disk as they are read,
/// so memory does not grow with the archive's size.
///
/// What it holds: a 1 MiB read buffer, a 256 KiB write buffer, and for each entry written so far
/// its central directory record (name, sizes, CRC-32, offset, times: about 70 bytes plus the name),
/// written out by `finish()`. A 100,000-photo archive holds about 10 MB of them.
///
/// The archive is written to a temporary file beside `destination` (`.NAME.partial-XXXXXXXX`), each
/// local header patched with the entry's CRC-32 and sizes once its data is written, and renamed
/// to `destination` when `finish()` succeeds. An error found before an entry's first byte is
/// written (a source that cannot be opened or is not a file, a bad or duplicate name) is thrown
/// and the archive goes on without that entry. An error once writing has begun (disk full, a read
/// error, a source that changed size) removes the temporary file and closes the writer, as does
/// releasing it unfinished: a failed export leaves no partial archive. Entries and
/// archives past 4 GiB, or more than 65,534 entries, get ZIP64 records; smaller archives are
/// plain ZIP, readable everywhere.
///
///     let zip = try ZipWriter(creating: URL(fileURLWithPath: "/exports/trip.zip"))
///     try zip.addFile(URL(fileURLWithPath: "/lib/Photos/2024/05/a.jpg"), as: "trip/a.jpg")
///     try zip.addData(xmp, as: "trip/a.xmp", modified: capture)
///     try zip.finish()
///
/// Not thread-safe: one writer is used by one task at a time.
public final class ZipWriter {
    /// How the archive is written.
    public struct Options: Sendable {
        /// Replace an existing file at the destination (otherwise that is an error).
        public var replaceExisting = false
        /// The time zone of the DOS times in the headers (the exact UTC time is recorded too).
        public var timeZone = TimeZone.current
        /// How many bytes of a source file are read at a time.
        public var chunkSize = 1 << 20
        /// When ZIP64 records are written; lowered by tests to exercise them on small archives.
        var zip64Limits = Zip64Limits.standard
        /// Writes ZIP64 records for every entry and the archive's end, whatever their sizes (tests).
        var forceZip64 = false

        /// The defaults: no replacing, the process's time zone, 1 MiB reads.
        public init() {}
    }

    /// The archive's final path.
    public let destination: URL
    private let options: Options
    private var file: ArchiveFile?
    private var entries: [ZipRecords.Entry] = []
    private var names = Set<String>()
    private let calendar: Calendar
    private var readBuffer: UnsafeMutableRawBufferPointer

    /// Starts an archive at `destination` (created when `finish()` succeeds).
    public init(creating destination: URL, options: Options = Options()) throws {
        self.destination = destination
        self.options = options
        calendar = DOSDateTime.calendar(in: options.timeZone)
        file = try ArchiveFile(destination: destination.path, replacing: options.replaceExisting)
        readBuffer = .allocate(byteCount: max(options.chunkSize, 4096), alignment: 16)
    }

    deinit {
        file?.discard()
        readBuffer.deallocate()
    }

    /// How many entries have been added.
    public var entryCount: Int { entries.count }

    /// Adds the file at `source` as `name` (sanitised: see `sanitisedName(_:)`), stored, read in
    /// chunks. `modified` defaults to the file's modification time.
    public func addFile(_ source: URL, as name: String, modified: Date? = nil) throws {
        try addFile(source, range: nil, as: name, modified: modified)
    }

    /// Adds the bytes of `source` in `range` (an entry of another archive, found by `ZipReader`) as
    /// `name`, stored, read in chunks: the archive's photos copied without being extracted.
    public func addFile(_ source: URL, range: Range<UInt64>?, as name: String, modified: Date? = nil) throws {
        let archive = try open()
        // Checked before anything is written: a missing photo or a bad name leaves the archive usable.
        let input = try SourceFile(source.path, range: range)
        var entry = try begin(name, method: 0, modified: modified ?? input.modified, expectedSize: input.size, in: archive)
        try failing {
            try archive.write(ZipRecords.localHeader(entry))
            var crc: UInt32 = 0
            var total: UInt64 = 0
            while true {
                let count = try input.read(into: readBuffer)
                if count == 0 { break }
                let chunk = UnsafeRawBufferPointer(rebasing: readBuffer[..<count])
                crc = Zlib.crc32(crc, chunk)
                total += UInt64(count)
                guard total <= input.size else { break }
                try archive.write(chunk)
            }
            guard total == input.size else {
                throw ZipError(path: source.path, reason: .sourceChanged(expectedBytes: input.size, readBytes: total))
            }
            entry.crc = crc
            entry.compressedSize = total
            entry.uncompressedSize = total
            try finishStreamed(entry, in: archive)
        }
    }

    /// Adds `data` as `name` (sanitised), deflated when `compression` asks and that shrinks it.
    public func addData(_ data: Data, as name: String, modified: Date, compression: ZipCompression = .deflate) throws {
        let archive = try open()
        let deflated = compression == .deflate ? try Zlib.deflated(data, name: name) : nil
        let stored = deflated ?? data
        var entry = try begin(name, method: deflated == nil ? 0 : 8, modified: modified, expectedSize: UInt64(data.count), in: archive)
        entry.crc = data.withUnsafeBytes { Zlib.crc32(0, $0) }
        entry.uncompressedSize = UInt64(data.count)
        entry.compressedSize = UInt64(stored.count)
        try failing {
            // Everything is known before the header: no patch needed.
            try archive.write(ZipRecords.localHeader(entry))
            try stored.withUnsafeBytes { try archive.write($0) }
            entries.append(entry)
        }
    }

    /// Writes the central directory and the end records, syncs the file and renames it to
    /// `destination`. The writer cannot be used afterwards.
    public func finish() throws {
        try failing {
            let archive = try open()
            let offset = archive.position
            for entry in entries {
                try archive.write(ZipRecords.centralHeader(entry, limit: options.zip64Limits.size, forceZip64: options.forceZip64))
            }
            let directory = ZipRecords.Directory(entryCount: UInt64(entries.count), offset: offset, size: archive.position - offset)
            try archive.write(ZipRecords.end(directory, limits: options.zip64Limits, forceZip64: options.forceZip64))
            try archive.commit()
            file = nil
            entries = []
        }
    }

    /// Abandons the archive: removes the temporary file; nothing appears at `destination`.
    public func discard() {
        file?.discard()
        file = nil
    }

    /// What `name` is stored as: `\` turned into `/`, and empty, `.` and `..` components removed,
    /// so no extractor can be led outside its folder (`../../etc/passwd` is `etc/passwd`). Nil when
    /// nothing is left, the name holds a NUL, or it is over 65,535 bytes of UTF-8.
    public static func sanitisedName(_ name: String) -> String? { ZipEntryName.sanitised(name) }

    // MARK: Steps

    private func open() throws -> ArchiveFile {
        guard let file else { throw ZipError(path: destination.path, reason: .writerClosed) }
        return file
    }

    /// Runs `body`, which writes to the archive; on any error, removes the temporary file (the
    /// archive may end inside an entry) before rethrowing.
    private func failing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            discard()
            throw error
        }
    }

    /// Checks the name and describes the entry about to be written at the archive's end.
    private func begin(_ name: String, method: UInt16, modified: Date, expectedSize: UInt64,
                       in archive: ArchiveFile) throws -> ZipRecords.Entry {
        guard let clean = ZipEntryName.sanitised(name) else { throw ZipError(path: name, reason: .invalidName(name)) }
        guard names.insert(clean).inserted else { throw ZipError(path: name, reason: .duplicateName(clean)) }
        let limit = options.zip64Limits.size
        let seconds = modified.timeIntervalSince1970.rounded(.down)
        let entry = ZipRecords.Entry(
            name: Array(clean.utf8), method: method, dosTime: DOSDateTime(modified, calendar: calendar),
            unixTime: seconds >= Double(Int32.min) && seconds <= Double(Int32.max) ? Int32(seconds) : nil,
            localHeaderOffset: archive.position,
            zip64: options.forceZip64 || expectedSize >= limit || archive.position >= limit)
        return entry
    }

    /// Patches the local header of an entry streamed from a file (its CRC-32 and sizes were zero)
    /// and records the entry for the central directory.
    private func finishStreamed(_ entry: ZipRecords.Entry, in archive: ArchiveFile) throws {
        let patch = ZipRecords.localPatch(entry)
        try archive.patch(patch.crcAndSizes, at: entry.localHeaderOffset + ZipRecords.localCRCOffset)
        if let sizes = patch.zip64Sizes {
            try archive.patch(sizes, at: entry.localHeaderOffset + ZipRecords.zip64SizesOffset(entry))
        }
        entries.append(entry)
    }
}
