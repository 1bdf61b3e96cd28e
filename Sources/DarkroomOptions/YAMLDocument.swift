import Foundation
import Yams

/// Decodes a whole YAML document (a template file, a stage's own data file) into a `Decodable`
/// type with the same compiler-style errors as pipeline files:
///
///     templates/mine.yaml:7:5: error: cells[1].widht: unknown key 'widht' (did you mean 'width'?)
///
/// Types that decode their keys through `OptionsReader` get unknown keys reported with a
/// suggestion; every problem is thrown as `Diagnostics` carrying `file`, line and column.
public enum YAMLDocument {
    /// Decodes `type` from `yaml`; `file` names the document in messages.
    public static func decode<T: Decodable>(_ type: T.Type, yaml: String, file: String) throws -> T {
        let decoding = NodeDecoding(file: file, source: yaml)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: yaml) else {
                throw Diagnostics([decoding.diagnostic(at: nil, path: "", "the file is empty")])
            }
            root = node
        } catch let error as YamlError {
            throw Diagnostics([decoding.diagnostic(yamlError: error)])
        }
        do {
            return try decoding.decode(T.self, from: root, keyPath: "")
        } catch var error as Diagnostics {
            // Paths are rendered relative to a parent (`steps[2].resize` + `.key`); at the root, drop the dot.
            for index in error.items.indices where error.items[index].keyPath.hasPrefix(".") {
                error.items[index].keyPath.removeFirst()
            }
            throw error
        }
    }

    /// Reads the file at `path` and decodes it; an unreadable file is a diagnostic at line 1.
    public static func decode<T: Decodable>(_ type: T.Type, contentsOf path: String) throws -> T {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw Diagnostics([Diagnostic(file: path, line: 1, column: 1, keyPath: "",
                                          message: "cannot read file: \(error.localizedDescription)")])
        }
        return try decode(T.self, yaml: text, file: path)
    }
}
