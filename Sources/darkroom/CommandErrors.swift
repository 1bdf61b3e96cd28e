import ArgumentParser
import DarkroomCore
import Foundation

/// Turns errors that stop a command (a connection refused, a wrong library, an unfinished shard)
/// into one line on standard error and exit status 2.
enum CommandErrors {
    static func reported(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let exit as ExitCode {
            throw exit
        } catch let error as Diagnostics {
            FileHandle.standardError.write(Data((error.description + "\n").utf8))
            throw ExitCode(2)
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            throw ExitCode(2)
        }
    }
}
