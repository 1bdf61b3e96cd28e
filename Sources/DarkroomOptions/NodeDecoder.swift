import Foundation
import Yams

/// Decodes `Decodable` values from a YAML node, so that every error can point at a line and column
/// and every key the decoded type never asked about is reported as unknown, with a suggestion.
package struct NodeDecoding {
    package let file: String
    let sourceLines: [Substring]

    package init(file: String, source: String) {
        self.file = file
        self.sourceLines = source.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// Decodes `T` from `node`; `keyPath` names the node in messages (`steps[2].resize`);
    /// `userInfo` is handed to `T` as the decoder's user info (with the file's path under `.pipelineFile`).
    package func decode<T: Decodable>(_ type: T.Type, from node: Node, keyPath: String,
                                      userInfo: [CodingUserInfoKey: Any] = [:]) throws -> T {
        let session = NodeDecodingSession()
        session.userInfo = userInfo
        session.userInfo[.pipelineFile] = file
        let value: T
        do {
            value = try T(from: NodeDecoder(node: node, codingPath: [], session: session))
        } catch let problems as OptionProblems {
            // The options were read to the end, so the unknown keys are known too.
            throw Diagnostics(problems.errors.map { diagnostic(for: $0, root: node, keyPath: keyPath) } + unknownKeys(session, keyPath))
        } catch where error is NodeDecodingFailure || error is DecodingError || error is StageSetupError {
            throw Diagnostics([diagnostic(for: error, root: node, keyPath: keyPath)])
        }
        let unknown = unknownKeys(session, keyPath)
        if !unknown.isEmpty { throw Diagnostics(unknown) }
        return value
    }

    /// Every key of the session's mappings that no decoder asked about, with a suggestion.
    private func unknownKeys(_ session: NodeDecodingSession, _ keyPath: String) -> [Diagnostic] {
        session.unknownKeys().map { entry in
            var message = "unknown key '\(entry.key)'"
            if let near = Suggestion.nearest(to: entry.key, in: entry.known) {
                message += " (did you mean '\(near)'?)"
            } else if !entry.known.isEmpty {
                message += "; valid keys: \(entry.known.sorted().joined(separator: ", "))"
            }
            return diagnostic(at: entry.mark, path: keyPath + render(entry.path), message)
        }
    }

    /// A decoding problem as a diagnostic at the node it concerns.
    private func diagnostic(for error: Error, root node: Node, keyPath: String) -> Diagnostic {
        switch error {
        case let error as NodeDecodingFailure:
            return diagnostic(at: error.mark ?? node.mark, path: keyPath + render(error.path), error.message)
        case let error as DecodingError:
            return diagnostic(for: error, root: node, keyPath: keyPath)
        case let error as StageSetupError:
            let path = keyPath + (error.key.map { ".\($0)" } ?? "")
            let target = error.key.flatMap { node.mapping?[Node($0)] } ?? node
            return diagnostic(at: target.mark, path: path, error.message)
        default:
            return diagnostic(at: node.mark, path: keyPath, "\(error)")
        }
    }

    /// A YAML syntax error as a diagnostic.
    package func diagnostic(yamlError error: YamlError) -> Diagnostic {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return diagnostic(at: mark, path: "", "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, _):
            return diagnostic(at: nil, path: "", "duplicate keys: \(duplicates.joined(separator: ", "))")
        default:
            return diagnostic(at: nil, path: "", "invalid YAML: \(error)")
        }
    }

    /// A diagnostic at a YAML mark, with the source line for the caret.
    package func diagnostic(at mark: Mark?, path: String, _ message: String) -> Diagnostic {
        let line = mark?.line ?? 1
        let column = mark?.column ?? 1
        let source = (1...sourceLines.count).contains(line) ? String(sourceLines[line - 1]) : nil
        return Diagnostic(file: file, line: line, column: column, keyPath: path, message: message, sourceLine: source)
    }

    private func diagnostic(for error: DecodingError, root: Node, keyPath: String) -> Diagnostic {
        let path: [CodingKey], message: String
        switch error {
        case .dataCorrupted(let c):
            path = c.codingPath; message = c.debugDescription
        case .keyNotFound(let key, let c):
            path = c.codingPath; message = "missing required key '\(key.stringValue)'"
        case .typeMismatch(let type, let c):
            path = c.codingPath; message = "expected \(NodeDecoder.describe(type)): \(c.debugDescription)"
        case .valueNotFound(let type, let c):
            path = c.codingPath; message = "expected \(NodeDecoder.describe(type)), got nothing"
        @unknown default:
            path = []; message = "\(error)"
        }
        return diagnostic(at: locate(path, in: root).mark, path: keyPath + render(path), message)
    }

    /// The deepest node along `path` (the parent when the last key is missing).
    private func locate(_ path: [CodingKey], in root: Node) -> Node {
        var node = root
        for key in path {
            if let index = key.intValue, let sequence = node.sequence, index < sequence.count {
                node = sequence[index]
            } else if let mapping = node.mapping, let child = mapping[Node(key.stringValue)] {
                node = child
            } else {
                break
            }
        }
        return node
    }

    func render(_ path: [CodingKey]) -> String {
        path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}

/// Thrown by the decoder itself, with the node's position.
struct NodeDecodingFailure: Error {
    var mark: Mark?
    var path: [CodingKey]
    var message: String
}

/// Remembers, per mapping, which keys the decoded types asked about.
final class NodeDecodingSession {
    private struct Seen {
        var mapping: Node.Mapping
        var path: [CodingKey]
        var asked: Set<String>
    }

    private var seen: [String: Seen] = [:]
    /// Handed to every decoder of the session.
    var userInfo: [CodingUserInfoKey: Any] = [:]

    private func id(_ mapping: Node.Mapping, _ path: [CodingKey]) -> String {
        "\(mapping.mark?.description ?? "?")|\(path.map(\.stringValue).joined(separator: "."))"
    }

    func register(_ mapping: Node.Mapping, path: [CodingKey]) {
        let key = id(mapping, path)
        if seen[key] == nil { seen[key] = Seen(mapping: mapping, path: path, asked: []) }
    }

    func ask(_ key: String, in mapping: Node.Mapping, path: [CodingKey]) {
        seen[id(mapping, path)]?.asked.insert(key)
    }

    /// Keys present in a mapping that no decoder asked about, with the keys that were asked about.
    func unknownKeys() -> [(key: String, mark: Mark?, path: [CodingKey], known: [String])] {
        seen.values.sorted { ($0.mapping.mark?.line ?? 0, $0.mapping.mark?.column ?? 0) < ($1.mapping.mark?.line ?? 0, $1.mapping.mark?.column ?? 0) }
            .flatMap { entry in
                entry.mapping.compactMap { pair -> (String, Mark?, [CodingKey], [String])? in
                    guard let name = pair.key.string, !entry.asked.contains(name) else { return nil }
                    return (name, pair.key.mark, entry.path, Array(entry.asked))
                }
            }
    }
}

struct NodeDecoder: Decoder {
    let node: Node
    let codingPath: [CodingKey]
    let session: NodeDecodingSession
    var userInfo: [CodingUserInfoKey: Any] { session.userInfo }

    func fail(_ message: String) -> NodeDecodingFailure {
        NodeDecodingFailure(mark: node.mark, path: codingPath, message: message)
    }

    var isNull: Bool {
        guard case .scalar(let scalar) = node else { return false }
        return scalar.tag == Tag(.null) || (scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string))
    }

    /// What the node is, for "got ..." in messages.
    var found: String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let s): return isNull ? "nothing" : "'\(s.string)'"
        default: return "an alias"
        }
    }

    static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: return "true or false"
        case is String.Type: return "a string"
        case is Double.Type, is Float.Type: return "a number"
        case is Int.Type, is Int64.Type, is Int32.Type, is UInt.Type: return "an integer"
        default: return "\(type)"
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let mapping: Node.Mapping
        if case .mapping(let m) = node {
            mapping = m
        } else if isNull {
            mapping = Node.Mapping([], Tag(.map), .block, node.mark)
        } else {
            throw fail("expected a mapping of options, got \(found)")
        }
        session.register(mapping, path: codingPath)
        return KeyedDecodingContainer(KeyedNodeContainer<Key>(mapping: mapping, decoder: self))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        if case .sequence(let s) = node { return UnkeyedNodeContainer(nodes: Array(s), decoder: self) }
        if isNull { return UnkeyedNodeContainer(nodes: [], decoder: self) }
        throw fail("expected a list, got \(found)")
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer { SingleNodeContainer(decoder: self) }

    func child(_ node: Node, _ key: CodingKey) -> NodeDecoder {
        NodeDecoder(node: node, codingPath: codingPath + [key], session: session)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let mapping: Node.Mapping
    let decoder: NodeDecoder
    var codingPath: [CodingKey] { decoder.codingPath }

    var allKeys: [Key] { mapping.keys.compactMap { $0.string.flatMap(Key.init(stringValue:)) } }

    private func value(_ key: Key) -> Node? {
        decoder.session.ask(key.stringValue, in: mapping, path: codingPath)
        return mapping[Node(key.stringValue)]
    }

    func contains(_ key: Key) -> Bool { value(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let node = value(key) else { return true }
        return decoder.child(node, key).isNull
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let node = value(key) else {
            throw NodeDecodingFailure(mark: mapping.mark, path: codingPath, message: "missing required key '\(key.stringValue)'")
        }
        return try T(from: decoder.child(node, key))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        guard let node = value(key) else { throw decoder.fail("missing key '\(key.stringValue)'") }
        return try decoder.child(node, key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        guard let node = value(key) else { throw decoder.fail("missing key '\(key.stringValue)'") }
        return try decoder.child(node, key).unkeyedContainer()
    }

    func superDecoder() throws -> Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> Decoder {
        decoder.child(value(key) ?? Node("", Tag(.null)), key)
    }
}

private struct IndexKey: CodingKey {
    var intValue: Int?
    var stringValue: String { "\(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { return nil }
}

private struct UnkeyedNodeContainer: UnkeyedDecodingContainer {
    let nodes: [Node]
    let decoder: NodeDecoder
    var currentIndex = 0
    var codingPath: [CodingKey] { decoder.codingPath }
    var count: Int? { nodes.count }
    var isAtEnd: Bool { currentIndex >= nodes.count }

    init(nodes: [Node], decoder: NodeDecoder) {
        self.nodes = nodes
        self.decoder = decoder
    }

    private mutating func next() throws -> NodeDecoder {
        guard !isAtEnd else { throw decoder.fail("list has too few entries") }
        defer { currentIndex += 1 }
        return decoder.child(nodes[currentIndex], IndexKey(currentIndex))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, decoder.child(nodes[currentIndex], IndexKey(currentIndex)).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: try next()) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> Decoder { try next() }
}

private struct SingleNodeContainer: SingleValueDecodingContainer {
    let decoder: NodeDecoder
    var codingPath: [CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.isNull }

    private func scalar(_ expected: String) throws -> String {
        guard case .scalar(let s) = decoder.node, !decoder.isNull else {
            throw decoder.fail("expected \(expected), got \(decoder.found)")
        }
        return s.string
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch try scalar("true or false") {
        case "true", "True", "TRUE", "yes", "Yes", "on": return true
        case "false", "False", "FALSE", "no", "No", "off": return false
        default: throw decoder.fail("expected true or false, got \(decoder.found)")
        }
    }

    func decode(_ type: String.Type) throws -> String { try scalar("a string") }

    func decode(_ type: Double.Type) throws -> Double {
        guard let value = Double(try scalar("a number")) else { throw decoder.fail("expected a number, got \(decoder.found)") }
        return value
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let text = try scalar("an integer").replacingOccurrences(of: "_", with: "")
        guard let value = T(text) else { throw decoder.fail("expected an integer, got \(decoder.found)") }
        return value
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: decoder) }
}
