import DarkroomCore
import DarkroomQueue
import Foundation
import XCTest

/// The run settings a queued pipeline carries: what `darkroom enqueue` stores, what a worker gets
/// back from them, and the reason a job fails when they cannot be used.
final class QueuedSettingsTests: XCTestCase {
    private func record(_ json: String) -> PipelineRecord {
        PipelineRecord(digest: "d", fileName: "import.yaml", yaml: "steps: []\n", library: "/srv/library", settingsJSON: json)
    }

    func testAWorkerRunsWithTheSettingsAsEnqueued() throws {
        let stored = QueuedSettings(library: "/srv/library", pixelLimit: 40_000_000, timeZone: "Asia/Kolkata")
        let settings = try record(try stored.json()).runSettings(jobs: 3)
        XCTAssertEqual(settings.library.path, "/srv/library")
        XCTAssertEqual(settings.pixelLimit, 40_000_000)
        XCTAssertEqual(settings.timeZone.identifier, "Asia/Kolkata")
        XCTAssertEqual(settings.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 0)), 19_800)
        XCTAssertEqual(settings.jobs, 3)
        XCTAssertEqual(try QueuedSettings(record: record(try stored.json())), stored)
    }

    func testTheStoredJSONKeepsItsShape() throws {
        // Older workers and the pipeline digest read these bytes: the keys must not change.
        let json = try QueuedSettings(library: "/l", pixelLimit: 5, timeZone: "UTC").json()
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        XCTAssertEqual(object?.keys.sorted(), ["library", "pixelLimit", "timeZone"])
    }

    func testSettingsAWorkerCannotUseFailTheJobWithTheReason() {
        let cases = [
            (#"{"library":"/l","pixelLimit":5,"timeZone":"Mars/Olympus_Mons"}"#,
             "the time zone 'Mars/Olympus_Mons' is not known on this machine"),
            (#"{"library":"library","pixelLimit":5,"timeZone":"UTC"}"#, "the library 'library' is not an absolute path"),
            (#"{"library":"/l","pixelLimit":0,"timeZone":"UTC"}"#, "the pixel limit 0 is not a positive number"),
            (#"{"library":"/l","timeZone":"UTC"}"#, "they are not the settings' JSON"),
            ("{}", "they are not the settings' JSON"),
        ]
        for (json, reason) in cases {
            XCTAssertThrowsError(try record(json).runSettings(jobs: 1), json) { error in
                XCTAssertTrue("\(error)".hasPrefix("the settings queued with import.yaml cannot be used: \(reason)"), "\(error)")
            }
        }
    }
}
