import Foundation
import Synchronization
import XCTest

/// The `darkroom` executable (or another of the package's, `executable`) built next to the test
/// bundle, run as a user runs it.
public struct DarkroomCommand {
    public let binary: URL
    /// The folder commands run in (the repository root, so `pipelines/...` paths work).
    public let workingDirectory: URL

    /// Finds the executable; skips the test when it was not built (fails it under CI).
    public init(workingDirectory: URL, executable: String = "darkroom") throws {
        let candidates = [URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
                          Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent(executable) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw Prerequisite.missing("\(executable) binary not found next to the test bundle (swift build first)")
        }
        binary = found
        self.workingDirectory = workingDirectory
    }

    /// Runs a command to the end and returns its exit status and output.
    public func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        let out = Pipe(), err = Pipe()
        configure(process, arguments, environment: environment)
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes at once, so a chatty stderr cannot block the process.
        let errors = Mutex(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = data }
            errorsRead.signal()
        }.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        errorsRead.wait()
        let errData = errors.withLock { $0 }
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    /// Starts a command in the background, its output going to `log` (or nowhere).
    public func start(_ arguments: [String], environment: [String: String] = [:], log: URL? = nil) throws -> Process {
        let process = Process()
        configure(process, arguments, environment: environment)
        if let log {
            FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
        } else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    private func configure(_ process: Process, _ arguments: [String], environment: [String: String]) {
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = workingDirectory
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
}
