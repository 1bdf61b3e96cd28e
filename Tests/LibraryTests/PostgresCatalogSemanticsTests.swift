import DarkroomLibrary
import DarkroomQueue
import DarkroomTestSupport
import Foundation
import XCTest

/// Every test of `CatalogSemanticsTests` again, on a PostgreSQL catalog (a fresh database on the test
/// server for each test): the class only makes another store. XCTest on Linux finds only the tests a
/// class declares, not those it inherits, so each is named again below: add a rule's test to both.
final class PostgresCatalogSemanticsTests: CatalogSemanticsTests {
    private var database: PostgresTestDatabase?
    private var session: PostgresSession?

    override func makeCatalog(library: URL) throws -> RowCatalog {
        let database = try PostgresTestDatabase()
        self.database = database
        let session = try PostgresSession(PostgresLocation(database.url))
        self.session = session
        return try PostgresCatalog(session: session, library: library)
    }

    override func execute(_ sql: String) throws {
        try PostgresTestDatabase.psql(try XCTUnwrap(database).url, sql)
    }

    override func tearDown() {
        super.tearDown()
        session?.close()
        database?.drop()
    }

    /// Each shared test is named here again: a test added to `CatalogSemanticsTests` alone would not
    /// run on PostgreSQL.
    func testEverySharedTestRunsOnPostgreSQL() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        func tests(in file: String, declaredBy prefix: String) throws -> Set<String> {
            let source = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let pattern = try NSRegularExpression(pattern: "\\n    " + prefix + "func (test\\w+)\\(\\) throws")
            return Set(pattern.matches(in: source, range: NSRange(source.startIndex..., in: source)).compactMap {
                Range($0.range(at: 1), in: source).map { String(source[$0]) }
            })
        }
        let shared = try tests(in: "CatalogSemanticsTests.swift", declaredBy: "")
        XCTAssertGreaterThan(shared.count, 10)
        XCTAssertEqual(try tests(in: "PostgresCatalogSemanticsTests.swift", declaredBy: "override "), shared)
    }

    // MARK: The shared tests, on PostgreSQL

    override func testACommitRetractsWhatItsUnitsNoLongerMake() throws { try super.testACommitRetractsWhatItsUnitsNoLongerMake() }
    override func testTheLastOfTwoUnitsOrOutputsForOneStepOrPathWins() throws { try super.testTheLastOfTwoUnitsOrOutputsForOneStepOrPathWins() }
    override func testRetiredStepsLoseTheirUnitsAndTheirOutputsAreStale() throws { try super.testRetiredStepsLoseTheirUnitsAndTheirOutputsAreStale() }
    override func testPendingNotesNameWhatWasNeverRecordedOnce() throws { try super.testPendingNotesNameWhatWasNeverRecordedOnce() }
    override func testNoNoteBelongsToAJobOutsideAQueue() throws { try super.testNoNoteBelongsToAJobOutsideAQueue() }
    override func testAHashIsRememberedForOneVersionOfAFile() throws { try super.testAHashIsRememberedForOneVersionOfAFile() }
    override func testADateIsReplacedWholeAndKeptWhenARunFindsNone() throws { try super.testADateIsReplacedWholeAndKeptWhenARunFindsNone() }
    override func testACorrectedDateIsRecordedWithTheDateItOverrides() throws { try super.testACorrectedDateIsRecordedWithTheDateItOverrides() }
    override func testAnAssetKeepsItsIdentityAndFirstRun() throws { try super.testAnAssetKeepsItsIdentityAndFirstRun() }
    override func testAPlaceAndAVideosEncodingAreReplacedWhole() throws { try super.testAPlaceAndAVideosEncodingAreReplacedWhole() }
    override func testListingsAreInByteOrder() throws { try super.testListingsAreInByteOrder() }
    override func testManyFilesAskedAboutAtOnceComeBackEachOnceWithTheirOwnHash() throws {
        try super.testManyFilesAskedAboutAtOnceComeBackEachOnceWithTheirOwnHash()
    }
    override func testCollectionOutputsAreThoseOfCollectionSubjects() throws { try super.testCollectionOutputsAreThoseOfCollectionSubjects() }
    override func testFindingPhotosToCorrect() throws { try super.testFindingPhotosToCorrect() }
    override func testAnOutputNamesTheOriginalItWasMadeFrom() throws { try super.testAnOutputNamesTheOriginalItWasMadeFrom() }
    override func testRecordedPipelinesAreTheLatestFirstEachOnce() throws { try super.testRecordedPipelinesAreTheLatestFirstEachOnce() }
    override func testARebuiltCatalogsFilesAreAdoptedByTheirPhoto() throws { try super.testARebuiltCatalogsFilesAreAdoptedByTheirPhoto() }
    override func testRowsAnEarlierDarkroomWroteAreReadAndChangedAlike() throws { try super.testRowsAnEarlierDarkroomWroteAreReadAndChangedAlike() }
}
