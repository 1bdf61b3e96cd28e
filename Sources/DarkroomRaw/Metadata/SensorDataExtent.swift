/// Checks, before decoding, that the sensor data a RAW's structure declares is in the file and large
/// enough for the sensor.
///
/// Needed because LibRaw 0.20 decodes missing data without saying so in several formats, and what it
/// then produces depends on memory it never wrote: a cut Panasonic RW2 decodes to zeros in a fresh
/// process and to plausible noise from a reused buffer in a long-running one. The structure is the
/// reliable witness: the strips or tiles of the sensor image (TIFF-based RAWs), the CFA block (RAF),
/// the media data box (CR3).
enum SensorDataExtent {
    /// Fewer declared bytes than this per sensor pixel (half a bit) cannot hold an image: lossless
    /// RAWs use 8 to 16 bits a pixel, the lossiest (Nikon HE*, Canon C-RAW) 2 to 4.
    static let minimumBytesPerPixel = 1.0 / 16

    /// Fewer declared bytes than this cannot be any camera's sensor image, whatever its size: what is
    /// left of a RAW whose image data was cut out (a metadata-only copy).
    static let minimumSensorBytes = 4096

    /// Throws `imageDataMissing` when the declared sensor data runs past the end of the file or is far
    /// too small for a `width` x `height` sensor; says nothing when the structure does not describe the data.
    static func verify(path: String, width: Int, height: Int) throws {
        let file = try FileBytes(path: path)
        guard let declared = try declaredBytes(in: file, path: path),
              Double(declared) < Double(width * height) * minimumBytesPerPixel else { return }
        throw RawError(path: path, reason: .imageDataMissing("the file holds \(declared) bytes of image data for a \(width)x\(height) sensor"))
    }

    /// For a file LibRaw did not identify (so no sensor size is known): throws `imageDataMissing` when
    /// its own structure is a RAW's whose sensor data runs past the end of the file or is too small for
    /// any sensor (a CR2 with its image data cut out is not recognised by LibRaw 0.20 at all).
    static func verifyUnidentified(path: String) throws {
        let file = try FileBytes(path: path)
        guard let declared = try declaredBytes(in: file, path: path), declared < minimumSensorBytes else { return }
        throw RawError(path: path, reason: .imageDataMissing("the file holds \(declared) bytes of image data, too few for any camera's sensor"))
    }

    /// The bytes of sensor data the file's structure declares, nil when it describes none; throws
    /// `imageDataMissing` when they run past the end of the file.
    private static func declaredBytes(in file: FileBytes, path: String) throws -> Int? {
        guard let container = RawContainer.identify(file) else { return nil }
        let blocks: [(offset: Int, length: Int)]
        switch container {
        case .tiff: blocks = TIFFImageBlocks.sensorBlocks(in: file)
        case .raf: blocks = rafBlock(file).map { [$0] } ?? []
        case .cr3: blocks = ISOBoxes.declaredTopLevel(in: file).filter { $0.type == "mdat" }
            .map { (offset: $0.payload, length: $0.end - $0.payload) }
        default: blocks = []
        }
        guard !blocks.isEmpty else { return nil }
        if let past = blocks.first(where: { $0.offset > file.count || $0.length > file.count - $0.offset }) {
            throw RawError(path: path, reason: .imageDataMissing(
                "the file ends at byte \(file.count), its sensor data should run to byte \(past.offset + past.length)"))
        }
        return blocks.reduce(0) { $0 + $1.length }
    }

    /// Fujifilm's header: the CFA data's offset and length at bytes 100 and 104 (big-endian).
    private static func rafBlock(_ file: ByteSource) -> (offset: Int, length: Int)? {
        guard let offset = file.uint32(at: 100, bigEndian: true), let length = file.uint32(at: 104, bigEndian: true),
              offset > 0, length > 0 else { return nil }
        return (Int(offset), Int(length))
    }
}

/// The strips or tiles of a TIFF-based RAW's sensor image.
enum TIFFImageBlocks {
    /// At most this many directories are visited (IFD chain and SubIFDs), a guard against loops.
    static let maximumDirectories = 32
    static let wanted: Set<UInt16> = [0x0102, 0x0106, 0x0111, 0x0117, 0x0118, 0x0144, 0x0145, 0x014A]

    /// The blocks of the directory most likely to be the sensor image: a CFA or linear-raw one (DNG),
    /// else the one with the most declared bytes among those that are not 8-bit pictures (previews
    /// and thumbnails are 8-bit; Canon's and Panasonic's raw directories have no BitsPerSample).
    static func sensorBlocks(in file: ByteSource) -> [(offset: Int, length: Int)] {
        guard let reader = TIFFReader(source: file) else { return [] }
        var candidates: [(blocks: [(offset: Int, length: Int)], isRaw: Bool)] = []
        var pending = [reader.firstDirectory]
        var visited = Set<Int>()
        while let offset = pending.popLast(), visited.count < maximumDirectories {
            guard visited.insert(offset).inserted, let directory = reader.directory(at: offset, tags: wanted) else { continue }
            let entries = directory.entries
            pending += directory.next.map { [$0] } ?? []
            pending += integers(entries[0x014A])
            let photometric = entries[0x0106]?.integer
            let bits = integers(entries[0x0102])
            let isRaw = photometric == 32803 || photometric == 34892
            guard isRaw || bits.isEmpty || bits.contains(where: { $0 > 8 }) else { continue }
            var offsets = integers(entries[0x0111] ?? entries[0x0144]), lengths = integers(entries[0x0117] ?? entries[0x0145])
            // Panasonic's RawDataOffset is where LibRaw reads; its StripOffsets may be a placeholder.
            if let rawDataOffset = entries[0x0118]?.integer, lengths.count == 1 { offsets = [rawDataOffset] }
            guard !offsets.isEmpty, offsets.count == lengths.count else { continue }
            candidates.append((Array(zip(offsets, lengths)).map { (offset: $0.0, length: $0.1) }, isRaw))
        }
        if let raw = candidates.first(where: { $0.isRaw }) { return raw.blocks }
        return candidates.max { $0.blocks.reduce(0) { $0 + $1.length } < $1.blocks.reduce(0) { $0 + $1.length } }?.blocks ?? []
    }

    /// The values of a SHORT, LONG or IFD entry.
    static func integers(_ entry: TIFFEntry?) -> [Int] {
        guard let entry, let sizes = TIFFEntry.sizes(of: entry.type), [3, 4, 13].contains(entry.type) else { return [] }
        return stride(from: 0, to: entry.value.count - sizes.element + 1, by: sizes.element).map { start in
            (0..<sizes.element).reduce(0) { $0 | Int(entry.value[start + $1]) << (8 * $1) }
        }
    }
}
