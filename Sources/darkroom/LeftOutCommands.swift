import ArgumentParser
import DarkroomStages

/// A command a build without the package's `Studio` trait leaves out: it is still listed, says so in
/// its help, and refuses to run (exit 2) with how to get a build that has it.
protocol LeftOutCommand: ParsableCommand {
    /// The command as typed (`export`, `catalog export`).
    static var typed: String { get }
}

extension LeftOutCommand {
    func run() throws {
        printError("error: darkroom \(Self.typed) is not in this build of darkroom: \(BuiltInStages.studioBuild)")
        throw ExitStatus.refused
    }
}

/// `darkroom export` in a build without the `Studio` trait.
struct ExportLeftOut: LeftOutCommand {
    static let typed = "export"
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Export photos and videos of a library (not in this build).")
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}

/// `darkroom catalog export` in a build without the `Studio` trait.
struct CatalogExportLeftOut: LeftOutCommand {
    static let typed = "catalog export"
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Print the catalog as JSON or CSV (not in this build).")
    @Argument(parsing: .allUnrecognized) var arguments: [String] = []
}
