import Foundation
import XCTest

/// A test with a database of its own on the test server (`DARKROOM_TEST_POSTGRES`), dropped after it.
/// Without a server the test fails; it is not skipped (XCTest would count a test whose `setUp` throws
/// as skipped as well as failed).
open class PostgresTestCase: XCTestCase {
    /// The test's database.
    public var database: PostgresTestDatabase!

    override open func invokeTest() {
        do {
            database = try PostgresTestDatabase()
        } catch {
            XCTFail("\(error)")
            return
        }
        super.invokeTest()
    }

    override open func tearDown() {
        database?.drop()
        super.tearDown()
    }
}
