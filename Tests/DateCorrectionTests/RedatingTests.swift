import DarkroomCore
import Foundation
import XCTest
import DarkroomModel
import DarkroomOptions

/// Where a template puts an output once its photo's date changes, from the path it has now.
final class RedatingTests: XCTestCase {
    let may = LocalDateTime(year: 2024, month: 5, day: 3, hour: 9, minute: 7, second: 2)!
    let june = LocalDateTime(year: 2019, month: 6, day: 15, hour: 12)!
    let id = "0f8fad5b-d9cb-869f-a165-70867728950e"

    func redated(_ template: String, _ path: String, fields: [String] = PathTemplate.fields) throws -> String? {
        try PathTemplate(template, allowedFields: fields).redated(path, from: may, to: june)
    }

    func testDateFieldsChangeAndEveryOtherFieldKeepsItsValue() throws {
        XCTAssertEqual(try redated("Photos/{yyyy}/{MM}/{id}.heic", "Photos/2024/05/\(id).heic"), "Photos/2019/06/\(id).heic")
        XCTAssertEqual(try redated("Thumbnails/{size}/{yyyy}/{MM}/{id}.jpg", "Thumbnails/1024/2024/05/\(id).jpg", fields: PathTemplate.fields + ["size"]),
                       "Thumbnails/1024/2019/06/\(id).jpg", "a stage's own field ({size}) is read back from the path")
        XCTAssertEqual(try redated("Videos/{yyyy}/{MM}/{id}.{ext}", "Videos/2024/05/\(id).mp4"), "Videos/2019/06/\(id).mp4",
                       "a stage's {ext} (the container written, not the original's) is kept")
        XCTAssertEqual(try redated("{yyyy}{MM}{dd}-{HH}{mm}{ss}/{name}-{yyyy}.jpg", "20240503-090702/IMG_2024-2024.jpg"),
                       "20190615-120000/IMG_2024-2019.jpg", "a name with the year in it keeps it; every use of a field changes")
    }

    func testAnEmptyFolderFieldFoldsAwayAsWhenRendered() throws {
        XCTAssertEqual(try redated("Thumbnails/{dir}/{yyyy}-{MM}/{name}.jpg", "Thumbnails/2024-05/IMG_1.jpg"), "Thumbnails/2019-06/IMG_1.jpg")
        XCTAssertEqual(try redated("Thumbnails/{dir}/{yyyy}-{MM}/{name}.jpg", "Thumbnails/DCIM/100/2024-05/IMG_1.jpg"),
                       "Thumbnails/DCIM/100/2019-06/IMG_1.jpg")
    }

    func testAPathTheTemplateDidNotMakeAtThatDateIsNotTouched() throws {
        XCTAssertNil(try redated("Photos/{yyyy}/{MM}/{id}.heic", "Photos/2023/05/\(id).heic"), "made at another date")
        XCTAssertNil(try redated("Photos/{yyyy}/{MM}/{id}.heic", "Pictures/2024/05/\(id).heic"), "made by another template")
        XCTAssertNil(try redated("Thumbnails/{dir}/{name}.jpg", "Thumbnails/IMG_1.jpg"), "no date in the template: it never moves")
    }

    func testRenderingAndRedatingAgree() throws {
        let template = try PathTemplate("Photos/{yyyy}/{MM}/{dd}/{HH}{mm}-{name}.{ext}")
        var values = PathTemplate.dateValues(may)
        values["name"] = "IMG_0530 (2)"; values["ext"] = "jpg"
        let before = try template.render(values)
        values.merge(PathTemplate.dateValues(june)) { $1 }
        XCTAssertEqual(template.redated(before, from: may, to: june), try template.render(values))
    }
}
