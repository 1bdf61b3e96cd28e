/// What an XMP packet says about a motion photo: Google's Camera (`GCamera:`) and Container
/// (`Container:Directory` of `Item:` entries) properties.
///
/// Names are matched by namespace URI, whatever prefix the writer chose, as attributes (Pixel and
/// Samsung write `GCamera:MotionPhoto="1"`) or as elements (exiftool writes
/// `<GCamera:MicroVideo>1</GCamera:MicroVideo>`). A malformed packet yields what was read before
/// the error.
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

    enum Namespace {
        static let camera = "http://ns.google.com/photos/1.0/camera/"
        static let container = "http://ns.google.com/photos/1.0/container/"
        static let item = "http://ns.google.com/photos/1.0/container/item/"
    }

    /// Reads `packet` (UTF-8 XML) with `XMLTokens`.
    init(parsing packet: [UInt8]) {
        var reader = Reader()
        for token in XMLTokens.scan(packet) { reader.read(token) }
        self = reader.result
    }

    init() {}

    /// Follows the tokens: the namespace declarations in scope, the open `Container:Item`, and the
    /// text of the element being read.
    private struct Reader {
        var result = MotionPhotoXMP()
        private var scopes: [[String: String]] = []
        private var itemDepth: Int?  // depth of the open Container:Item element
        private var property: (namespace: String, name: String)?
        private var text = ""

        mutating func read(_ token: XMLTokens.Token) {
            switch token {
            case .start(let name, let attributes):
                var scope: [String: String] = [:]
                for attribute in attributes where Self.isDeclaration(attribute.name) {
                    scope[attribute.name == "xmlns" ? "" : String(attribute.name.dropFirst(6))] = attribute.value
                }
                scopes.append(scope)
                let element = resolve(name, isAttribute: false)
                if element?.namespace == Namespace.container, element?.name == "Item", itemDepth == nil {
                    itemDepth = scopes.count
                    result.items.append(ContainerItem())
                }
                for attribute in attributes where !Self.isDeclaration(attribute.name) {
                    if let resolved = resolve(attribute.name, isAttribute: true) { set(resolved.namespace, resolved.name, attribute.value) }
                }
                property = element
                text = ""
            case .text(let characters):
                if property != nil, text.utf8.count < 4096 { text += characters }
            case .end:
                guard !scopes.isEmpty else { return }  // an end tag with no start: ignored
                if let property {
                    let value = text.trimmingWhitespace
                    if !value.isEmpty { set(property.namespace, property.name, value) }
                }
                property = nil
                text = ""
                if itemDepth == scopes.count { itemDepth = nil }
                scopes.removeLast()
            }
        }

        private static func isDeclaration(_ name: String) -> Bool { name == "xmlns" || name.hasPrefix("xmlns:") }

        /// `prefix:local` to its namespace URI and local name; unprefixed attributes have no namespace.
        private func resolve(_ qualified: String, isAttribute: Bool) -> (namespace: String, name: String)? {
            let parts = qualified.split(separator: ":", maxSplits: 1).map(String.init)
            let (prefix, local) = parts.count == 2 ? (parts[0], parts[1]) : ("", qualified)
            if isAttribute && prefix.isEmpty { return nil }
            guard let uri = scopes.reversed().lazy.compactMap({ $0[prefix] }).first else { return nil }
            return (uri, local)
        }

        private mutating func set(_ namespace: String, _ name: String, _ value: String) {
            switch (namespace, name) {
            case (Namespace.camera, "MotionPhoto"): result.motionPhoto = Self.isTrue(value)
            case (Namespace.camera, "MicroVideo"): result.microVideo = Self.isTrue(value)
            case (Namespace.camera, "MicroVideoOffset"): result.microVideoOffset = UInt64(value)
            case (Namespace.item, _) where itemDepth != nil && !result.items.isEmpty:
                let last = result.items.count - 1
                switch name {
                case "Mime": result.items[last].mime = value
                case "Semantic": result.items[last].semantic = value
                case "Length": result.items[last].length = UInt64(value)
                case "Padding": result.items[last].padding = UInt64(value)
                default: break
                }
            default:
                break
            }
        }

        private static func isTrue(_ value: String) -> Bool { value == "1" || value.lowercased() == "true" }
    }
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
