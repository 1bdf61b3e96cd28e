import DarkroomOptions
import Foundation

extension PathTemplate {
    /// The values for one item: its capture date fields, id, name and extension.
    public static func values(for item: Item) -> [String: String] {
        var values = dateValues(item.captureDate?.local)
        values["id"] = item.id.uuidString.lowercased()
        values["name"] = item.source.deletingPathExtension().lastPathComponent
        values["ext"] = item.source.pathExtension.lowercased()
        values["dir"] = (item.relativePath as NSString).deletingLastPathComponent
        return values
    }
}
