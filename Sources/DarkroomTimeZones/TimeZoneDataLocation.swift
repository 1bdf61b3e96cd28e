import Foundation

/// Where the map file Darkroom ships is looked for. SwiftPM copies it into a resource bundle beside
/// the built executables; an installed `darkroom` finds it in `../share/darkroom/`; a build from a
/// checkout also finds it in the sources. `DARKROOM_TIMEZONE_DATA` names a file explicitly.
///
/// `Bundle.module` is not used: it stops the process when the bundle is missing (a binary copied
/// on its own), where Darkroom must report an error instead.
enum TimeZoneDataLocation {
    /// The map's file name, wherever it lies.
    static let fileName = "timezones.bin"
    /// The environment variable that names the map file and overrides every other place.
    static let environmentVariable = "DARKROOM_TIMEZONE_DATA"
    /// The folder SwiftPM makes for this target's resources: `<package>_<target>.resources`.
    static let resourceBundleName = "Darkroom_DarkroomTimeZones.resources"

    /// The first map file that exists, or the error that lists every place tried. A path in
    /// `DARKROOM_TIMEZONE_DATA` is returned as it is, so a wrong one is reported rather than
    /// silently replaced by the shipped map.
    static func bundledFile(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(TimeZoneDataError) -> URL {
        if let named = environment[environmentVariable], !named.isEmpty {
            return URL(fileURLWithPath: named)
        }
        let places = candidates()
        if let found = places.first(where: { FileManager.default.isReadableFile(atPath: $0.path) }) {
            return found
        }
        throw .notFound(searched: places.map(\.path))
    }

    /// The places tried, in order: beside the executable, in the install prefix, in the sources.
    static func candidates() -> [URL] {
        var places: [URL] = []
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            let folder = executable.deletingLastPathComponent()
            places.append(folder.appendingPathComponent(resourceBundleName).appendingPathComponent(fileName))
            places.append(folder.deletingLastPathComponent()
                .appendingPathComponent("share/darkroom").appendingPathComponent(fileName))
        }
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        places.append(sources.appendingPathComponent("Resources").appendingPathComponent(fileName))
        return places
    }
}
