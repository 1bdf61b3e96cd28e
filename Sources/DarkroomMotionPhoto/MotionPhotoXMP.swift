import DarkroomXMP

/// What an XMP packet says about a motion photo: Google's Camera (`GCamera:`) and Container
/// (`Container:Directory` of `Item:` entries) properties.
///
/// Read with `XMPPacket`, so names are matched by namespace URI, whatever prefix the writer chose,
/// as attributes (Pixel and Samsung write `GCamera:MotionPhoto="1"`) or as elements (exiftool
/// writes `<GCamera:MicroVideo>1</GCamera:MicroVideo>`). A malformed packet yields what was read
/// before the error.
struct MotionPhotoXMP: Equatable {
    /// `GCamera:MotionPhoto` is 1.
    var motionPhoto = false
    /// `GCamera:MicroVideo` is 1.
    var microVideo = false
    /// `GCamera:MicroVideoOffset`: bytes from the start of the video to the end of the file.
    var microVideoOffset: UInt64?
    /// `Container:Directory`, in order (the primary image first).
    var items: [ContainerItem] = []

    /// One `Container:Item` of the directory.
    struct ContainerItem: Equatable {
        var mime: String?
        var semantic: String?
        var length: UInt64?
        var padding: UInt64?
    }

    /// Reads `packet` (UTF-8 XML) leniently.
    init(parsing packet: [UInt8]) {
        let xmp = XMPPacket(lenient: packet)
        let camera = { (name: String) in xmp[XMPNamespace.googleCamera, name]?.text }
        motionPhoto = camera("MotionPhoto").map(Self.isTrue) ?? false
        microVideo = camera("MicroVideo").map(Self.isTrue) ?? false
        microVideoOffset = camera("MicroVideoOffset").flatMap { UInt64($0) }
        let itemName = XMPName(XMPNamespace.googleContainer, "Item")
        items = (xmp[XMPNamespace.googleContainer, "Directory"]?.items ?? []).compactMap { entry in
            guard let item = entry[itemName] else { return nil }
            let field = { (name: String) in item[XMPName(XMPNamespace.googleContainerItem, name)]?.text }
            return ContainerItem(mime: field("Mime"), semantic: field("Semantic"),
                                 length: field("Length").flatMap { UInt64($0) }, padding: field("Padding").flatMap { UInt64($0) })
        }
    }

    init() {}

    private static func isTrue(_ value: String) -> Bool { value == "1" || value.lowercased() == "true" }
}

extension MotionPhotoXMP {
    /// What the packet claims about a file of `fileSize` bytes: Motion Photo first, then Micro Video.
    ///
    /// A Motion Photo's items after the primary image are concatenated at the end of the file, so
    /// the video starts `Item:Length` of it and every later item before the end (as ExoPlayer's
    /// `MotionPhotoDescription` reads it; `Item:Padding` only separates the primary image from them).
    func claims(fileSize: UInt64) -> [VideoClaim] {
        var claims: [VideoClaim] = []
        if motionPhoto {
            claims.append(VideoClaim(kind: .googleXMP, source: "XMP GCamera:MotionPhoto", extent: containerExtent(fileSize: fileSize)))
        }
        if microVideo || (microVideoOffset != nil && !motionPhoto) {
            let extent: VideoClaim.Extent
            switch microVideoOffset {
            case nil, 0?:
                extent = .unusable("no GCamera:MicroVideoOffset says where the video is")
            case let distance? where distance > fileSize:
                extent = .unusable("GCamera:MicroVideoOffset says the video starts \(distance) bytes before the end, "
                    + "but the file has only \(fileSize) bytes (truncated?)")
            case let distance?:
                extent = .bytes(offset: fileSize - distance, length: distance)
            }
            claims.append(VideoClaim(kind: .googleMicroVideo, source: "XMP GCamera:MicroVideo", extent: extent))
        }
        return claims
    }

    private func containerExtent(fileSize: UInt64) -> VideoClaim.Extent {
        let isVideo = { (item: ContainerItem) in item.semantic == "MotionPhoto" || (item.mime?.hasPrefix("video/") ?? false) }
        guard let index = items.firstIndex(where: { $0.semantic == "MotionPhoto" }) ?? items.lastIndex(where: isVideo) else {
            return .unusable("its Container:Directory lists no MotionPhoto video item")
        }
        guard index > 0 else { return .unusable("its Container:Directory lists the video as the primary item") }
        var fromEnd: UInt64 = 0
        for item in items[index...] {
            guard let length = item.length else { return .unusable("a Container:Item after the primary image has no Item:Length") }
            let (sum, overflow) = fromEnd.addingReportingOverflow(length)
            guard !overflow else { return .unusable("its Container:Item lengths overflow") }
            fromEnd = sum
        }
        guard let length = items[index].length, length > 0 else { return .unusable("the video item's Item:Length is 0") }
        guard fromEnd <= fileSize else {
            return .unusable("its Container:Directory puts the video \(fromEnd) bytes before the end, "
                + "but the file has only \(fileSize) bytes (truncated?)")
        }
        return .bytes(offset: fileSize - fromEnd, length: length)
    }
}
