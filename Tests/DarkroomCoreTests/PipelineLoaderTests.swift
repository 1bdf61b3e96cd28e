import DarkroomCore
import Foundation
import XCTest
import DarkroomOptions

/// Pipeline files: every mistake reads like a compiler error, with a suggestion where one helps.
final class PipelineLoaderTests: XCTestCase {
    let loader = PipelineLoader(registry: testRegistry)

    func problems(_ yaml: String) -> [Diagnostic] {
        do {
            _ = try loader.load(yaml: yaml, file: "pipelines/x.yaml")
            XCTFail("expected the pipeline to be rejected")
            return []
        } catch let error as Diagnostics {
            return error.items
        } catch {
            XCTFail("unexpected error \(error)")
            return []
        }
    }

    func testValidPipelineLoadsWithDefaults() throws {
        let pipeline = try loader.load(yaml: "steps:\n  - text-date\n  - shout\n", file: "ok.yaml")
        XCTAssertEqual(pipeline.steps.map(\.name), ["text-date", "shout"])
        XCTAssertEqual(pipeline.inputs.include, InputSpec.defaultInclude)
        XCTAssertFalse(pipeline.inputs.followSymlinks)
    }

    func testInvalidValuePointsAtLineAndColumnWithTheKeyPath() {
        let found = problems("""
            steps:
              - text-date
              - shout:
                  suffix: "toolong"
            """)
        XCTAssertEqual(found.map(\.headline),
                       ["pipelines/x.yaml:4:15: error: steps[1].shout.suffix: expected at most 3 characters, got 'toolong'"])
        XCTAssertEqual(found.first?.description.split(separator: "\n").last, "              ^")
    }

    func testUnknownStageSuggestsTheNearestName() {
        let found = problems("steps:\n  - text-date\n  - shuot: {}\n")
        XCTAssertEqual(found.map(\.headline), ["pipelines/x.yaml:3:5: error: steps[1]: unknown stage 'shuot' (did you mean 'shout'?)"])
    }

    func testAStageThisBuildLeavesOutIsNamedWithHowToGetIt() throws {
        let registry = StageRegistry([StageDescriptor(TextDate.self)], leftOut: ["collage": "build with the Studio trait", "text-date": "unused"])
        XCTAssertEqual(registry.leftOut, ["collage": "build with the Studio trait"], "a registered stage is not left out")
        do {
            _ = try PipelineLoader(registry: registry).load(yaml: "steps:\n  - text-date\n  - collage: {}\n", file: "pipelines/x.yaml")
            XCTFail("expected the pipeline to be rejected")
        } catch let error as Diagnostics {
            XCTAssertEqual(error.items.map(\.headline),
                           ["pipelines/x.yaml:3:5: error: steps[1]: stage 'collage' is not in this build of darkroom: build with the Studio trait"])
        }
    }

    func testUnknownOptionKeySuggestsTheNearestKey() {
        let found = problems("steps:\n  - text-date\n  - shout:\n      sufix: '?'\n")
        XCTAssertEqual(found.map(\.headline), ["pipelines/x.yaml:4:7: error: steps[1].shout: unknown key 'sufix' (did you mean 'suffix'?)"])
    }

    func testUnknownTopLevelKeyAndBadTemplateAreAllReportedAtOnce() {
        let found = problems("""
            step: []
            steps:
              - text-date
              - shout: { output: "out/{yyy}/{id}.txt" }
            """)
        XCTAssertEqual(found.map(\.headline), [
            "pipelines/x.yaml:1:1: error: unknown key 'step' (did you mean 'steps'?)",
            "pipelines/x.yaml:4:22: error: steps[1].shout.output: unknown field '{yyy}' in 'out/{yyy}/{id}.txt' (did you mean '{yyyy}'?)",
        ])
    }

    func testStepThatNeedsAnEarlierStepSaysWhich() {
        let found = problems("steps:\n  - shout\n  - text-date\n")
        XCTAssertEqual(found.map(\.headline),
                       ["pipelines/x.yaml:2:5: error: steps[0]: 'shout' needs capture-date from an earlier step (add 'text-date' before it)"])
    }

    func testYAMLSyntaxErrorHasItsPosition() {
        let found = problems("steps:\n  - text-date\n  - shout: {suffix: '?'\n")
        XCTAssertEqual(found.count, 1)
        XCTAssertTrue(found[0].headline.hasPrefix("pipelines/x.yaml:4:1: error: invalid YAML"), found[0].headline)
    }

    func testWrongTypesAreExplained() {
        XCTAssertEqual(problems("steps: text-date\n").map(\.headline),
                       ["pipelines/x.yaml:1:8: error: steps: expected a list of steps, got 'text-date'"])
        XCTAssertEqual(problems("inputs: { include: [], follow-symlinks: maybe }\nsteps: [text-date]\n").map(\.headline), [
            "pipelines/x.yaml:1:20: error: inputs.include: expected a list of at least one glob, got []",
            "pipelines/x.yaml:1:41: error: inputs.follow-symlinks: expected true or false, got 'maybe'",
        ])
        XCTAssertEqual(problems("inputs: { follow-symlinks: maybe }\nsteps: [text-date]\n").map(\.headline), [
            "pipelines/x.yaml:1:28: error: inputs.follow-symlinks: expected true or false, got 'maybe'",
        ])
    }

    func testEveryProblemInAStepIsReportedAtOnce() {
        let found = problems("""
            steps:
              - text-date
              - shout: { suffix: "toolong", output: "out/{yyy}.txt", volume: 11 }
            """)
        XCTAssertEqual(found.map(\.headline), [
            "pipelines/x.yaml:3:22: error: steps[1].shout.suffix: expected at most 3 characters, got 'toolong'",
            "pipelines/x.yaml:3:41: error: steps[1].shout.output: unknown field '{yyy}' in 'out/{yyy}.txt' (did you mean '{yyyy}'?)",
            "pipelines/x.yaml:3:58: error: steps[1].shout: unknown key 'volume'; valid keys: output, suffix",
        ])
    }

    func testOptionsAndTheirDeclarationsCannotDrift() throws {
        /// Reads a key it never declared, and declares one it never reads.
        struct Drifted: StageOptions {
            static let read = StageOption.flag("read", default: false, "Read but not declared.")
            static let unread = StageOption.flag("unread", default: false, "Declared but not read.")
            static let options: [any OptionDeclaration] = [unread]
            init(from decoder: Decoder) throws {
                let reader = try OptionsReader(decoder, declaring: Self.options)
                _ = reader.read(Self.read)
                try reader.finish()
            }
            func encode(to encoder: Encoder) throws {}
        }
        XCTAssertThrowsError(try JSONDecoder().decode(Drifted.self, from: Data("{}".utf8))) { error in
            let messages = (error as? OptionProblems)?.errors.map { "\($0)" } ?? []
            XCTAssertEqual(messages.count, 2, "\(error)")
            XCTAssertTrue(messages.contains { $0.contains("'read' is read but not declared") }, "\(messages)")
            XCTAssertTrue(messages.contains { $0.contains("'unread' is declared but the stage never reads it") }, "\(messages)")
        }
    }

    func testMissingStepsIsAnError() {
        XCTAssertEqual(problems("description: nothing\n").map(\.message), ["missing required key 'steps'"])
    }
}
