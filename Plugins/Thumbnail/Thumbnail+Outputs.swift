import DarkroomCore
import DarkroomOptions

extension Thumbnail {
    /// One path per size, as `process` renders them (for `darkroom explain`).
    public func plannedOutputs(for item: Item, settings: RunSettings) -> [String] {
        var values = PathTemplate.values(for: item)
        return options.sizes.compactMap { size in
            values["size"] = String(size)
            return try? options.output.render(values)
        }
    }
}
