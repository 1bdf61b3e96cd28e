import ArgumentParser
import DarkroomCore
import DarkroomReport
import Foundation
import DarkroomModel
import DarkroomOptions

/// The exit status of every `darkroom` command, one contract for all of them:
///
/// | status | meaning |
/// | --- | --- |
/// | 0 | everything succeeded |
/// | 1 | the command completed, but some files (or jobs) failed; each is listed |
/// | 2 | nothing was done: a wrong pipeline file or command line, a locked library, a refused merge |
/// | 3 | the command could not complete: a full disk, a lost database, an unexpected error |
///
/// Array-job scripts (`deploy/`) count 1 as done (the merge lists the failures) and retry 3.
enum ExitStatus {
    static let failuresListed = ExitCode(1)
    static let refused = ExitCode(2)
    static let incomplete = ExitCode(3)

    /// The status for an error that ended a command, with what to print for it (nil: already printed).
    static func classify(_ error: Error) -> (status: ExitCode, message: String?) {
        switch error {
        case let exit as ExitCode: return (exit, nil)
        case let diagnostics as Diagnostics: return (refused, diagnostics.description)
        case is RefusalError, is ValidationError: return (refused, "error: \(error)")
        default: return (incomplete, "error: \(error)")
        }
    }
}

/// Writes `message` on standard error, a line at a time, control characters shown escaped (a file
/// name in it cannot play tricks on the terminal).
func printError(_ message: String) {
    let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
    FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
}

/// Prints errors that stop a command (a connection refused, a wrong library, an unfinished shard) as
/// one line on standard error and ends the command with the status `ExitStatus` gives them.
enum CommandErrors {
    static func reported(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            let (status, message) = ExitStatus.classify(error)
            if let message { printError(message) }
            throw status
        }
    }
}
