import DarkroomModel
import DarkroomSimilarity
import XCTest

/// Bursts from camera identifiers, file names and timing, and the frame each one shows.
final class BurstGroupingTests: XCTestCase {
    /// A shot at `seconds` past 2024-01-01 12:00:00 UTC.
    func shot(_ id: String, camera: String? = "Canon EOS R5", at seconds: Double?, subseconds: Bool = true, burst: BurstMark? = nil,
              primary: Bool = false, name: String? = nil, folder: String = "/card/DCIM/100CANON", sharpness: Double? = nil) -> BurstShot {
        BurstShot(id: id, camera: camera, captured: seconds.map { CaptureInstant(seconds: 1_704_110_400 + $0, hasSubseconds: subseconds) },
                  burst: burst.map { BurstMark(source: $0.source, identifier: $0.identifier, isPrimary: primary) }, fileName: name ?? "\(id).jpg", folder: folder, sharpness: sharpness)
    }

    func testThreeShotsAFifthOfASecondApartAreABurstPickingTheSharpest() {
        let bursts = BurstGrouping.bursts(in: [
            shot("a", at: 0.0, sharpness: 40), shot("b", at: 0.2, sharpness: 95), shot("c", at: 0.4, sharpness: 60),
            shot("later", at: 5.0, sharpness: 500),
        ])
        XCTAssertEqual(bursts, [Burst(evidence: .timing, members: ["a", "b", "c"], pick: "b", pickIsCameraPrimary: false)])
    }

    func testTwoShotsHalfASecondApartAreNotABurst() {
        XCTAssertEqual(BurstGrouping.bursts(in: [shot("a", at: 0.0), shot("b", at: 0.5)]), [])
    }

    func testShotsChainWhileEachIsWithinASecondOfTheNext() {
        let bursts = BurstGrouping.bursts(in: (0..<5).map { shot("s\($0)", at: Double($0) * 0.9) } + [shot("apart", at: 5.6)])
        XCTAssertEqual(bursts.map(\.members), [["s0", "s1", "s2", "s3", "s4"]], "3.6 s in all, 0.9 s steps; 2 s to the next shot")
    }

    func testTwoCamerasInterleavedMakeTwoBursts() {
        let shots = [
            shot("r1", camera: "Canon EOS R5", at: 0.0, sharpness: 10), shot("p1", camera: "Apple iPhone 15", at: 0.1),
            shot("r2", camera: "Canon EOS R5", at: 0.3, sharpness: 30), shot("p2", camera: "Apple iPhone 15", at: 0.4),
            shot("r3", camera: "Canon EOS R5", at: 0.6, sharpness: 20), shot("p3", camera: "Apple iPhone 15", at: 0.7, sharpness: 5),
            shot("unknown", camera: nil, at: 0.2), shot("unknown2", camera: nil, at: 0.5), shot("unknown3", camera: nil, at: 0.8),
        ]
        let bursts = BurstGrouping.bursts(in: shots)
        XCTAssertEqual(bursts.map(\.members), [["r1", "r2", "r3"], ["p1", "p2", "p3"]])
        XCTAssertEqual(bursts.map(\.pick), ["r2", "p3"], "the sharpest; a frame without a sharpness ranks last")
    }

    func testWholeSecondsAloneCannotTellABurstFromCopiesOfOnePhoto() {
        let same = BurstGrouping.bursts(in: ["a", "b", "c"].map { shot($0, at: 7.0, subseconds: false) })
        XCTAssertEqual(same, [], "three shots stamped with one second may be a photo and its re-saved copies")
        let consecutive = BurstGrouping.bursts(in: [shot("a", at: 7, subseconds: false), shot("b", at: 8, subseconds: false),
                                                   shot("c", at: 9, subseconds: false)])
        XCTAssertEqual(consecutive, [], "a second apart on the clock may be two seconds apart")
    }

    func testCopiesOfAFrameAreNotFramesOfItsBurst() {
        let frames = [shot("a", at: 0.1, sharpness: 10), shot("b", at: 0.4, sharpness: 30), shot("c", at: 0.7, sharpness: 20)]
        let copies = [shot("b-copy", at: 0.4, folder: "/backup", sharpness: 90), shot("a-copy", at: 0.1, folder: "/backup")]
        let bursts = BurstGrouping.bursts(in: copies + frames)
        XCTAssertEqual(bursts.map(\.members), [["a", "b", "c"]], "the frames in the burst's folder; their copies are left to near-duplicates")
        XCTAssertEqual(bursts.first?.pick, "b")
        XCTAssertEqual(BurstGrouping.bursts(in: [shot("p", at: 3.0), shot("p-q60", at: 3.0, folder: "/backup"),
                                                 shot("p-small", at: 3.0, folder: "/shared")]), [],
                       "a photo and two copies that kept its EXIF are one shot")
    }

    func testAppleBurstIdentifierGroupsFramesWhateverTheirTiming() {
        let burst = BurstMark(source: .apple, identifier: "6A3F2C91-0E53-4C4B-9B57-1A1D2E3F4A5B")
        let bursts = BurstGrouping.bursts(in: [
            shot("IMG_0001", camera: "Apple iPhone 15", at: 0, burst: burst, sharpness: 12),
            shot("IMG_0002", camera: "Apple iPhone 15", at: 0.1, burst: burst, sharpness: 80),
            shot("IMG_0003", camera: "Apple iPhone 15", at: 2.5, burst: burst, sharpness: 33),
            shot("IMG_0004", camera: "Apple iPhone 15", at: 2.6, sharpness: 100),
        ])
        XCTAssertEqual(bursts, [Burst(evidence: .appleBurstID(burst.identifier), members: ["IMG_0001", "IMG_0002", "IMG_0003"],
                                      pick: "IMG_0002", pickIsCameraPrimary: false)])
    }

    func testGoogleBurstPrimaryIsThePickEvenWhenNotTheSharpest() {
        let burst = BurstMark(source: .google, identifier: "b9b16484-0edd-4836-b95b-9230a77d2139")
        let bursts = BurstGrouping.bursts(in: [
            shot("f0", camera: "Google Pixel 3", at: 0, burst: burst, sharpness: 90),
            shot("f1", camera: "Google Pixel 3", at: 0.1, burst: burst, primary: true, sharpness: 20),
            shot("f2", camera: "Google Pixel 3", at: 0.2, burst: burst, sharpness: 70),
        ])
        XCTAssertEqual(bursts, [Burst(evidence: .googleBurstID(burst.identifier), members: ["f0", "f1", "f2"], pick: "f1", pickIsCameraPrimary: true)])
    }

    func testAFrameWithACameraIdentifierIsNotGroupedByTiming() {
        let burst = BurstMark(source: .apple, identifier: "ONE-FRAME-LEFT")
        let bursts = BurstGrouping.bursts(in: [shot("kept", at: 0, burst: burst), shot("a", at: 0.2), shot("b", at: 0.4)])
        XCTAssertEqual(bursts, [], "the other frames of its burst were deleted; it does not join unrelated shots")
    }

    func testGoogleCameraBurstFileNamesPickTheCover() {
        let names = ["00000IMG_00000_BURST20171111030039.jpg", "00001IMG_00001_BURST20171111030039_COVER.jpg",
                     "00002IMG_00002_BURST20171111030039.jpg", "IMG_20171111_030055.jpg"]
        let bursts = BurstGrouping.bursts(in: names.enumerated().map { index, name in
            shot("n\(index)", camera: "Huawei Nexus 6P", at: nil, name: name, folder: "/phone/DCIM/Camera", sharpness: Double(10 - index))
        })
        XCTAssertEqual(bursts, [Burst(evidence: .fileName(.burstTimestamp, key: "BURST20171111030039"), members: ["n0", "n1", "n2"],
                                      pick: "n1", pickIsCameraPrimary: true)])
    }

    func testSamsungSequencesPickTheSharpestAndStayInTheirFolder() {
        let shots = [
            shot("a1", camera: nil, at: nil, name: "20231207_101605_001.jpg", folder: "/phone-a/DCIM/Camera", sharpness: 1),
            shot("a2", camera: nil, at: nil, name: "20231207_101605_002.jpg", folder: "/phone-a/DCIM/Camera", sharpness: 9),
            shot("b1", camera: nil, at: nil, name: "20231207_101605_001.jpg", folder: "/phone-b/DCIM/Camera", sharpness: 4),
            shot("b2", camera: nil, at: nil, name: "20231207_101605_002.jpg", folder: "/phone-b/DCIM/Camera", sharpness: 3),
            shot("plain", camera: nil, at: nil, name: "20231207_101605.jpg", folder: "/phone-a/DCIM/Camera"),
        ]
        let bursts = BurstGrouping.bursts(in: shots).sorted { $0.members[0] < $1.members[0] }
        XCTAssertEqual(bursts.map(\.members), [["a1", "a2"], ["b1", "b2"]])
        XCTAssertEqual(bursts.map(\.pick), ["a2", "b1"])
        XCTAssertEqual(bursts.map(\.pickIsCameraPrimary), [false, false])
    }

    func testBurstFileNamePatterns() {
        let cases: [(String, BurstFileName.Pattern, String, Bool)] = [
            ("00015IMG_00015_BURST20171111030039_COVER.jpg", .burstTimestamp, "BURST20171111030039", true),
            ("00100lrPORTRAIT_00100_BURST20200418222652648_COVER.jpg", .burstTimestamp, "BURST20200418222652648", true),
            ("00000PORTRAIT_00000_BURST20190828181853475.jpg", .burstTimestamp, "BURST20190828181853475", false),
            ("DSC_0052_BURST20230709220904977_COVER.JPG", .burstTimestamp, "BURST20230709220904977", true),
            ("DSC_0001_BURST20230709220904977.JPG", .burstTimestamp, "BURST20230709220904977", false),
            ("IMG_20180914_094602055_BURST000_COVER.jpg", .burstNumber, "IMG_20180914_094602055", true),
            ("IMG_20201112_111836850_BURST000_COVER_TOP.jpg", .burstNumber, "IMG_20201112_111836850", true),
            ("IMG_20231014_183246_BURST002.jpg", .burstNumber, "IMG_20231014_183246", false),
            ("20231207_101605_031.jpg", .samsungSequence, "20231207_101605", false),
        ]
        for (name, pattern, key, primary) in cases {
            let parsed = BurstFileName(name)
            XCTAssertEqual(parsed?.pattern, pattern, name)
            XCTAssertEqual(parsed?.key, key, name)
            XCTAssertEqual(parsed?.isPrimary, primary, name)
        }
        for name in ["PXL_20231207_032111247.RAW-01.COVER.jpg", "PXL_20231207_032108788.RAW-01.MP.COVER.jpg",
                     "PXL_20231207_032111247.RAW-02.ORIGINAL.dng", "IMG_20171111_030128.jpg", "20231207_101552.jpg",
                     "IMG_1234 (1).jpg", "20231207_101605(0).jpg"] {
            XCTAssertNil(BurstFileName(name), name)
        }
    }

    /// A gallery groups only the shots that may be frames of a burst (a camera's mark, a burst's
    /// file name, or a camera and another shot within a second): the same bursts as from every shot.
    func testLeavingOutShotsThatMayNotBeFramesFindsTheSameBursts() {
        let mark = BurstMark(source: .apple, identifier: "6A3F2C91-0E53-4C4B-9B57-1A1D2E3F4A5B")
        let shots = [
            shot("a", at: 0.0, sharpness: 40), shot("b", at: 0.2, sharpness: 95), shot("c", at: 0.4, sharpness: 60),
            shot("s0", at: 100), shot("s1", at: 100.9), shot("s2", at: 101.8), shot("s3", at: 102.7),
            shot("w1", at: 200, subseconds: false), shot("w2", at: 200, subseconds: false, folder: "/backup"),
            shot("m1", at: 300, burst: mark), shot("m2", at: 340, burst: mark),
            shot("n1", at: 400, name: "IMG_20231014_183246_BURST001.jpg"), shot("n2", at: 420, name: "IMG_20231014_183246_BURST002.jpg"),
            shot("alone", at: 500), shot("nocamera", camera: nil, at: 600.0), shot("nocamera2", camera: nil, at: 600.5),
            shot("undated", at: nil), shot("nearly", at: 701.0), shot("nearly2", at: 702.01),
        ]
        let instants = shots.compactMap { $0.captured?.seconds }.sorted()
        let kept = shots.filter { BurstGrouping.mayBeFrame($0, amongInstants: instants) }
        XCTAssertEqual(Set(shots.map(\.id)).subtracting(kept.map(\.id)), ["alone", "nocamera", "nocamera2", "undated", "nearly", "nearly2"])
        XCTAssertEqual(BurstGrouping.bursts(in: kept), BurstGrouping.bursts(in: shots))
        XCTAssertEqual(BurstGrouping.bursts(in: kept).map(\.members), [["a", "b", "c"], ["s0", "s1", "s2", "s3"], ["m1", "m2"], ["n1", "n2"]])
    }
}
