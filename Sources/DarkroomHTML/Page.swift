import DarkroomDigest
import Foundation

/// A whole HTML page in Darkroom's look: the shell (language, character set, viewport, title), the
/// stylesheet and the viewer script, linked as files beside the page (a gallery) or inlined (a report
/// that must stand alone), and a Content Security Policy that lets the page load nothing but its own
/// files: no fonts, scripts or images from anywhere else.
public struct Page: Sendable {
    /// Where the page's CSS and JavaScript come from.
    public enum Assets: Sendable {
        /// Files beside the page (`darkroom.css`, `darkroom.js`), by their relative URLs.
        case linked(stylesheet: String, script: String)
        /// Written into the page itself.
        case inline
    }

    public var title: String
    public var body: Markup
    public var assets: Assets

    /// A page titled `title` (escaped) with `body` as its content.
    public init(title: String, body: Markup, assets: Assets) {
        self.title = title
        self.body = body
        self.assets = assets
    }

    /// The complete document.
    public var html: String {
        var head: [Markup] = [
            .void("meta", [Attribute("charset", "utf-8")]),
            .void("meta", [Attribute("name", "viewport"), Attribute("content", "width=device-width, initial-scale=1")]),
            .void("meta", [Attribute("http-equiv", "Content-Security-Policy"), Attribute("content", contentSecurityPolicy)]),
            .void("meta", [Attribute("name", "color-scheme"), Attribute("content", "light dark")]),
            .void("meta", [Attribute("name", "referrer"), Attribute("content", "no-referrer")]),
            .element("title", text: title),
        ]
        let script: Markup
        switch assets {
        case .linked(let stylesheet, let scriptURL):
            head.append(.void("link", [Attribute("rel", "stylesheet"), Attribute("href", stylesheet)]))
            script = .element("script", [Attribute("src", scriptURL), Attribute("defer", nil)])
        case .inline:
            head.append(.element("style", [], [.rawText(Stylesheet.css, closing: "style")]))
            script = .element("script", [], [.rawText(ViewerScript.source, closing: "script")])
        }
        let document = Markup.element("html", [Attribute("lang", "en")], [
            .element("head", [], head),
            .element("body", [], [body, script]),
        ])
        return "<!doctype html>\n" + document.html + "\n"
    }

    /// Only the page's own files: images, media, the stylesheet and script (by file, or inline by
    /// their SHA-256); nothing else, and no plugins, frames or form posts.
    var contentSecurityPolicy: String {
        let code: (style: String, script: String)
        switch assets {
        case .linked: code = ("'self'", "'self'")
        case .inline: code = (Self.hashSource(Stylesheet.css), Self.hashSource(ViewerScript.source))
        }
        return "default-src 'none'; img-src 'self' file:; media-src 'self' file:; style-src \(code.style); "
            + "script-src \(code.script); base-uri 'none'; form-action 'none'"
    }

    /// `'sha256-...'`: a CSP source that allows exactly this inline code.
    static func hashSource(_ code: String) -> String {
        "'sha256-\(Data(SHA256Digest.hash(Data(code.utf8))).base64EncodedString())'"
    }
}
