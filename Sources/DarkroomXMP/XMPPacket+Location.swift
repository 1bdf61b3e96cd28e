/// Where a photo was taken, as XMP records it: the properties a packet shared with people loses.
extension XMPPacket {
    /// This packet without its location properties (see `isLocation(_:)`); rating, keywords,
    /// title, description, dates, camera and every other property are kept as they are.
    public func removingLocation() -> XMPPacket {
        var copy = self
        for property in properties where Self.isLocation(property.name) {
            copy[property.name] = nil
        }
        return copy
    }

    /// Whether a top-level property records a place: the ones exiftool lists among XMP's location
    /// tags, and, in any other schema, a name that says so (`GPS…`, `…Latitude`, `…Longitude`,
    /// `…Altitude`, `Location…`, `City`, `State`, `Country…`, `ProvinceState`, `Sublocation`,
    /// `WorldRegion`): drones and phone makers invent their own schemas, and a property missed
    /// here is a home address shared. Known names:
    /// - `exif:GPS*` (every GPS field, GPSTimeStamp included);
    /// - `photoshop:City`, `photoshop:State`, `photoshop:Country`;
    /// - `Iptc4xmpCore:Location`, `Iptc4xmpCore:CountryCode`;
    /// - `Iptc4xmpExt:LocationCreated`, `LocationShown` and the location fields used alone
    ///   (`City`, `ProvinceState`, `CountryName`, `CountryCode`, `Sublocation`, `WorldRegion`,
    ///   `LocationId`, `LocationName`, `GPSLatitude`...);
    /// - `dc:coverage` (its spatial topic), `xmpDM:shotLocation`, `mediapro:Location`/`City`/
    ///   `State`/`Country`, PRISM's `location` and `geography`, DarwinCore's `dcterms:Location`,
    ///   DJI's `drone-dji:GpsLatitude`/`GpsLongitude`/`AbsoluteAltitude`/`RelativeAltitude`,
    ///   Google's `Device:EarthPos*`, and Sony Ericsson's `cell:` schema (mobile country and area
    ///   codes).
    /// Exposure's `exifEX:ISOSpeedLatitude*` is not a place and is kept.
    public static func isLocation(_ name: XMPName) -> Bool {
        if let locals = knownLocationNames[name.namespace], locals.contains(name.local) { return true }
        if wholeLocationNamespaces.contains(where: { name.namespace.hasPrefix($0) }) { return true }
        if name.namespace == XMPNamespace.exif, name.local.hasPrefix("GPS") { return true }
        if name.namespace.hasPrefix("http://prismstandard.org/namespaces/"), ["location", "geography"].contains(name.local) { return true }
        return looksLikeLocation(name.local)
    }

    private static let knownLocationNames: [String: Set<String>] = [
        XMPNamespace.photoshop: ["City", "State", "Country"],
        XMPNamespace.iptcCore: ["Location", "CountryCode"],
        XMPNamespace.iptcExtension: ["LocationCreated", "LocationShown", "City", "ProvinceState", "CountryName", "CountryCode",
                                     "Sublocation", "WorldRegion", "LocationId", "LocationName", "GPSLatitude",
                                     "GPSLongitude", "GPSAltitude"],
        XMPNamespace.dc: ["coverage"],
        "http://ns.adobe.com/xmp/1.0/DynamicMedia/": ["shotLocation"],
        "http://ns.iview-multimedia.com/mediapro/1.0/": ["Location", "City", "State", "Country"],
        "http://purl.org/dc/terms/": ["Location"],
        "http://www.dji.com/drone-dji/1.0/": ["GpsLatitude", "GpsLongitude", "GpsLongtitude", "AbsoluteAltitude", "RelativeAltitude"],
    ]

    /// Schemas whose every property locates the photo.
    private static let wholeLocationNamespaces = ["http://developer.sonyericsson.com/cell/1.0/"]

    /// The catch-all for schemas not listed: a local name that names a place or a coordinate.
    private static func looksLikeLocation(_ local: String) -> Bool {
        let name = local.lowercased()
        if name.hasPrefix("isospeedlatitude") { return false }
        if name.hasPrefix("gps") || name.hasPrefix("location") || name.hasPrefix("earthpos") { return true }
        if ["latitude", "longitude", "altitude"].contains(where: { name.hasSuffix($0) }) { return true }
        return ["city", "state", "country", "countryname", "countrycode", "provincestate", "sublocation", "worldregion"].contains(name)
    }
}
