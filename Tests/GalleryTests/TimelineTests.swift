import DarkroomCore
@testable import GalleryStage
import XCTest
import DarkroomModel

/// Months split into pages, and the gallery's options.
final class TimelineTests: XCTestCase {
    func entry(_ year: Int, _ month: Int, _ day: Int, id: String) -> GalleryEntry {
        let date = LocalDateTime(year: year, month: month, day: day, hour: 12).map {
            CaptureDate(local: $0, utcOffsetSeconds: nil, source: .exifOriginal, timeZoneSource: .unknown, confidence: .high)
        }
        return GalleryEntry(id: id, kind: .photo, date: date, thumbnail: LibraryImage(path: "t/\(id).jpg", width: 200, height: 150))
    }

    func testAMonthWithMoreThanAPageIsSplitAndUndatedComeLast() {
        var entries = (1...25).map { entry(2024, 3, 1 + $0 % 28, id: String(format: "m%02d", $0)) }
        entries += [entry(2024, 2, 29, id: "feb"), GalleryEntry(id: "none", kind: .photo, thumbnail: LibraryImage(path: "n.jpg", width: 1, height: 1))]
        let pages = Timeline.pages(entries.sorted(by: GalleryEntry.inOrder), perPage: 10)
        XCTAssertEqual(pages.map(\.file), ["2024-02.html", "2024-03.html", "2024-03-2.html", "2024-03-3.html", "undated.html"])
        XCTAssertEqual(pages.map(\.entries.count), [1, 10, 10, 5, 1])
        XCTAssertEqual(pages.map(\.title), ["February 2024", "March 2024 (1 of 3)", "March 2024 (2 of 3)", "March 2024 (3 of 3)", "Undated"])
        // In capture order across the parts.
        let march = pages[1...3].flatMap(\.entries).compactMap(\.date?.local)
        XCTAssertEqual(march, march.sorted())
        // Each part links to the parts around it.
        let middle = MonthPage(page: pages[2], previous: pages[1], next: pages[3], galleryTitle: "Photos", tiles: TileMaker(folder: "gallery")).html
        XCTAssertTrue(middle.contains("<a href=\"2024-03.html\" rel=\"prev\">\u{2039} March 2024 (1 of 3)</a>"), middle)
        XCTAssertTrue(middle.contains("<a href=\"2024-03-3.html\" rel=\"next\">March 2024 (3 of 3) \u{203A}</a>"), middle)
    }

    /// The gallery works a month at a time: its photos by month in order, the undated last, and a
    /// burst's shot taken just after midnight at a month's end with its pick, on whose page it is folded.
    func testPhotosComeByMonthInOrderWithTheUndatedLastAndABurstsShotsWithTheirPick() {
        func record(_ name: String, _ date: LocalDateTime?) -> ItemRecord {
            ItemRecord(source: URL(fileURLWithPath: "/card/\(name).jpg"), relativePath: "\(name).jpg", contentHash: name,
                       id: ContentHash.uuid(fromHex: ContentHash.of(name)),
                       captureDate: date.map { CaptureDate(local: $0, utcOffsetSeconds: nil, source: .exifOriginal, timeZoneSource: .unknown, confidence: .high) })
        }
        let april = record("april", LocalDateTime(year: 2024, month: 4, day: 2, hour: 9))
        let pick = record("pick", LocalDateTime(year: 2024, month: 3, day: 31, hour: 23, minute: 59, second: 59))
        let shot = record("shot", LocalDateTime(year: 2024, month: 4, day: 1, hour: 0))
        let undated = record("undated", nil)
        let february = record("february", LocalDateTime(year: 2024, month: 2, day: 29, hour: 12))
        let roles = [pick, shot].reduce(into: [String: BurstRole]()) { $0[$1.id.uuidString.lowercased()] = BurstRole(pick: pick.id, frames: 2) }
        let items = [undated, april, shot, pick, february]
        let months = Timeline.months(items, roles: roles)
        XCTAssertEqual(months.map { $0.month?.key ?? "undated" }, ["2024-02", "2024-03", "2024-04", "undated"])
        XCTAssertEqual(months.map { $0.items(of: items).map(\.contentHash) }, [["february"], ["shot", "pick"], ["april"], ["undated"]])
    }

    /// What each month is made from (the key a month is remembered by) reads the catalog's revisions
    /// a few whole months at a time, and comes out as when every photo's were read at once; a catalog
    /// without revisions gives no months to remember.
    func testMonthSourcesReadRevisionsAFewMonthsAtATime() {
        let counts = [3, 1, 4, 2, 2]
        let items = counts.enumerated().flatMap { month, count in
            (0..<count).map { day in
                ItemRecord(sourcePath: "/library/Photos/\(month)-\(day).heic", relativePath: "Photos/\(month)-\(day).heic",
                           contentHash: "h\(month)-\(day)", id: ContentHash.uuid(fromHex: ContentHash.of("\(month)-\(day)")),
                           captureDate: CaptureDate(local: LocalDateTime(year: 2024, month: month + 1, day: day + 1, hour: 12)!, utcOffsetSeconds: 0,
                                                    source: .exifOriginal, timeZoneSource: .metadata, confidence: .high))
            }
        }
        let months = Timeline.months(items, roles: [:])
        XCTAssertEqual(months.map(\.positions.count), counts)
        let revisions = Dictionary(uniqueKeysWithValues: items.enumerated().map { ($1.contentHash, Int64($0 + 1)) })
        var reads: [[String]] = []
        let sources = MonthMemory.sources(of: months, items: items, settings: "s", jobs: 2, atOnce: 4) { hashes in
            reads.append(hashes)
            return revisions.filter { hashes.contains($0.key) }
        }
        XCTAssertEqual(reads.map(\.count), [4, 4, 4], "January and February, March alone, April and May")
        XCTAssertEqual(Set(reads.flatMap { $0 }), Set(revisions.keys))
        let whole = months.map { MonthMemory.source(of: $0.items(of: items), revisions: revisions, settings: "s") }
        XCTAssertEqual(sources, whole)
        XCTAssertEqual(Set(whole).count, counts.count, "each month its own")
        XCTAssertNil(MonthMemory.sources(of: months, items: items, settings: "s", jobs: 2) { _ in nil })
    }

    /// Pages made a month at a time are each made once, with the pages before and after them: a
    /// month's last page waits for the next month's first.
    func testPagesMadeAMonthAtATimeKnowTheirNeighbours() {
        let months = [[entry(2024, 1, 5, id: "a")], (1...3).map { entry(2024, 2, $0, id: "b\($0)") }, [entry(2024, 3, 9, id: "c")]]
        var sequence = PageSequence<TimelinePage>()
        var made: [String] = []
        func make(_ page: TimelinePage, previous: TimelinePage?, next: TimelinePage?) {
            made.append("\(previous?.file ?? "-") < \(page.file) > \(next?.file ?? "-")")
        }
        for entries in months {
            sequence.append(Timeline.pages(of: entries[0].month, entries, perPage: 2), make: make)
        }
        sequence.finish(make: make)
        XCTAssertEqual(made, ["- < 2024-01.html > 2024-02.html", "2024-01.html < 2024-02.html > 2024-02-2.html",
                              "2024-02.html < 2024-02-2.html > 2024-03.html", "2024-02-2.html < 2024-03.html > -"])
    }

    /// The front page counts every undated photo and video, over all of their pages (it counted the
    /// first page's, as photos).
    func testTheFrontPageCountsEveryUndatedPhotoAndVideo() {
        let thumbnail = LibraryImage(path: "n.jpg", width: 1, height: 1)
        let undated = [GalleryEntry(id: "u1", kind: .photo, thumbnail: thumbnail), GalleryEntry(id: "u2", kind: .photo, thumbnail: thumbnail),
                       GalleryEntry(id: "u3", kind: .video, thumbnail: thumbnail)]
        let pages = Timeline.pages([entry(2024, 1, 5, id: "a")] + undated, perPage: 2)
        XCTAssertEqual(pages.map(\.file), ["2024-01.html", "undated.html", "undated-2.html"])
        let html = IndexPage(title: "Photos", cards: IndexPage.Card.of(pages), madeCount: 0, tiles: TileMaker(folder: "gallery")).html
        XCTAssertTrue(html.contains("3 photos and 1 video, January 2024"), html)
        XCTAssertTrue(html.contains(">2 photos and 1 video with no capture date</a>"), html)
    }

    func testCaptionWords() {
        XCTAssertEqual(CaptionText.dateTime(LocalDateTime(year: 2024, month: 2, day: 29, hour: 23, minute: 59)!), "Thursday 29 February 2024, 23:59")
        XCTAssertEqual(CaptionText.duration(7.4), "0:07")
        XCTAssertEqual(CaptionText.duration(3723), "1:02:03")
        XCTAssertEqual(CaptionText.place(GeoLocation(latitude: -33.8568, longitude: 151.2153)!), "33.8568° S, 151.2153° E")
        XCTAssertEqual(CaptionText.count(photos: 1234, videos: 1), "1,234 photos and 1 video")
        XCTAssertEqual(CaptionText.count(photos: 0, videos: 2), "2 videos")
        XCTAssertEqual(CaptionText.videoFacts(VideoFacts(duration: 12, codec: "hevc", bitDepth: 10, hdrTransfer: .hlg, audioCodec: "aac")),
                       "0:12 · HEVC 10-bit HLG")
        XCTAssertEqual(CaptionText.source(.user), "a date set by hand (darkroom catalog set-date)", "a date corrected with set-date says so")
    }
}
