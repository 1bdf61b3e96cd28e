import DarkroomExif
import DarkroomHEIF
import DarkroomLibrary
import DarkroomModel
import DarkroomVips
import DarkroomXMP
import Foundation

/// Makes the files of one photo or video for its destination, by format: a JPEG for people, a
/// HEIC, or the original with its XMP sidecar; a video as an H.264 MP4 (its streams copied when
/// they already are one); a still's motion part beside it. Thread-safe; native work runs on the
/// calling thread.
struct PhotoRenderer: Sendable {
    let library: URL
    let settings: ExportSettings
    let metadata: PhotoMetadataReader
    /// Threads one photo's libvips and x265 work may use.
    let threadsPerPhoto: Int

    /// The files of `item`, named `base` plus their extensions; renders that must go through a
    /// path are written to temporary files in `scratch`.
    func files(for item: ExportPlan.Item, scratch: URL) throws -> [ExportedFile] {
        let candidate = item.candidate
        let modified = candidate.asset.captureDate?.instant ?? candidate.asset.captureDate?.sortingInstant ?? Date()
        var files: [ExportedFile] = []
        var made: [URL] = []
        do {
            if candidate.isVideo {
                files.append(try video(candidate, name: item.files[0], scratch: scratch, made: &made, modified: modified))
            } else {
                files += try photo(candidate, item: item, scratch: scratch, made: &made, modified: modified)
            }
            if settings.motion, let motion = candidate.motion, let name = item.motionFile {
                files.append(try motionPart(motion, name: name, scratch: scratch, made: &made, modified: modified))
            }
        } catch {
            for url in made { unlink(url.path) }
            throw error
        }
        return files
    }

    // MARK: Photos

    private func photo(_ candidate: ExportCandidate, item: ExportPlan.Item, scratch: URL, made: inout [URL],
                       modified: Date) throws -> [ExportedFile] {
        let original = URL(fileURLWithPath: candidate.asset.originalPath)
        let source = candidate.libraryFile.map { library.appendingPathComponent($0) } ?? original
        switch settings.format {
        case .original:
            try requireFile(original)
            let read = metadata.read(libraryFile: candidate.libraryFile.map { library.appendingPathComponent($0) }, original: original)
            let sidecar = ExportXMP.sidecar(read.packet, asset: candidate.asset, keepLocation: settings.keepLocation)
            return [ExportedFile(name: item.files[0], content: .file(original, temporary: false), modified: modified),
                    ExportedFile(name: item.sidecarFile!, content: .data(sidecar), modified: modified)]
        case .jpeg:
            try requireFile(source)
            if candidate.libraryFile == nil { try checkPixels(source) }
            let image = try Image.forSharing(source.path, longEdge: settings.longEdge)
            let exif = ExifBlob.forSharing(image.exifData, keepLocation: settings.keepLocation, capture: Self.stamp(candidate.asset.captureDate))
            let packet = metadata.read(libraryPacket: image.xmpData, libraryFile: source, original: original).packet
            let xmp = ExportXMP.forSharing(packet, date: candidate.asset.captureDate, keepLocation: settings.keepLocation)
            let jpeg = try image.sharedJPEGData(quality: ExportSettings.jpegQuality, exif: exif, xmp: xmp)
            return [ExportedFile(name: item.files[0], content: .data(jpeg), modified: modified)]
        case .heic:
            try requireFile(source)
            if candidate.libraryFile == nil { try checkPixels(source) }
            let header = try Image.open(source.path)
            if settings.keepLocation, candidate.libraryFile != nil, max(header.width, header.height) <= settings.longEdge {
                return [ExportedFile(name: item.files[0], content: .file(source, temporary: false), modified: modified)]
            }
            let temporary = TemporaryName.beside(item.files[0], in: scratch)
            made.append(temporary)
            try encodeHEIC(source, original: original, asset: candidate.asset, to: temporary)
            return [ExportedFile(name: item.files[0], content: .file(temporary, temporary: true), modified: modified)]
        }
    }

    /// The library's HEIC (or the original) at most `longEdge` on its long side, upright, its
    /// colour profile kept, encoded again as the import does, with its metadata cleaned as for a JPEG.
    private func encodeHEIC(_ source: URL, original: URL, asset: AssetFacts, to destination: URL) throws {
        let image = try Image.thumbnail(source.path, width: settings.longEdge, height: settings.longEdge).eightBitRGB()
        let exif = ExifBlob.forSharing(image.exifData, keepLocation: settings.keepLocation, capture: Self.stamp(asset.captureDate))
        let packet = metadata.read(libraryPacket: image.xmpData, libraryFile: source, original: original).packet
        let xmp = ExportXMP.forSharing(packet, date: asset.captureDate, keepLocation: settings.keepLocation)
        let pixels = RGBPixels(bytes: try image.pixelBytes(), width: image.width, height: image.height, hasAlpha: image.hasAlpha)
        let encoding = HEIFEncodeSettings(quality: ExportSettings.heicQuality, preset: "veryfast", threads: threadsPerPhoto)
        try HEIFEncoder.encode(pixels, iccProfile: image.iccProfile, exif: exif, settings: encoding, to: destination.path, xmp: xmp)
    }

    /// Refuses an original over the pixel limit before it is decoded.
    private func checkPixels(_ url: URL) throws {
        let header = try Image.open(url.path)
        guard header.width * header.height <= settings.pixelLimit else {
            throw ExportFileError(path: url.path, reason: "\(header.width)x\(header.height) is over the limit of \(settings.pixelLimit / 1_000_000) megapixels")
        }
    }

    /// The EXIF form of a capture date.
    static func stamp(_ date: CaptureDate?) -> ExifCaptureStamp? {
        guard let local = date?.local else { return nil }
        return ExifCaptureStamp(year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute,
                                second: local.second, nanosecond: local.nanosecond, utcOffsetSeconds: date?.utcOffsetSeconds)
    }
}

/// Throws the photo's failure when a file it is exported from is not there: the path and the reason.
func requireFile(_ url: URL) throws {
    guard let info = FileInfo(path: url.path, followLinks: true) else {
        throw ExportFileError(path: url.path, reason: "missing: the file is not there")
    }
    guard info.isRegularFile else { throw ExportFileError(path: url.path, reason: "not a regular file") }
}
