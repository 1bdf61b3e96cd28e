@testable import DarkroomHTML
import XCTest

/// Text from files (camera models, EXIF comments, file names) never becomes markup.
final class EscapingTests: XCTestCase {
    func testTextAndAttributeEscaping() {
        XCTAssertEqual(HTMLEscaping.text("<script>alert(\"x\" & 'y')</script>"), "&lt;script&gt;alert(\"x\" &amp; 'y')&lt;/script&gt;")
        XCTAssertEqual(HTMLEscaping.attribute("\" onerror=\"alert(1)' <b>&"), "&quot; onerror=&quot;alert(1)&#39; &lt;b&gt;&amp;")
        XCTAssertEqual(HTMLEscaping.text("nul\u{0}byte"), "nul\u{FFFD}byte")
        XCTAssertEqual(HTMLEscaping.text("Été 日本 📷"), "Été 日本 📷", "non-ASCII text is written as it is (the page is UTF-8)")
    }

    func testElementsEscapeTheirTextAndAttributes() {
        let markup = Markup.element("p", [Attribute("title", "a\"b"), .class("x")], [.text("<i>not italic</i>")])
        XCTAssertEqual(markup.html, "<p title=\"a&quot;b\" class=\"x\">&lt;i&gt;not italic&lt;/i&gt;</p>")
        XCTAssertEqual(Markup.void("img", [Attribute("alt", ""), Attribute("width", 3)]).html, "<img alt=\"\" width=\"3\">")
        XCTAssertEqual(Markup.element("button", [Attribute("disabled", nil)], text: "go").html, "<button disabled>go</button>")
    }

    /// A camera model that is a script, in every place a tile writes it: no tag opens, no attribute ends.
    func testAHostileCameraModelInATileStaysText() {
        let hostile = "<script>alert('pwned')</script>\" onmouseover=\"alert(2)"
        let tile = PhotoTile(id: "p-1", thumbnail: "t.jpg", width: 200, height: 150, alt: "Photo with \(hostile)",
                             media: .photo(large: "l.jpg"), title: hostile, details: hostile, dateSource: hostile, uncertainDate: true)
        let html = PhotoGrid.markup([tile]).html
        XCTAssertFalse(html.contains("<script"), html)
        XCTAssertFalse(html.contains("\" onmouseover"), html)
        XCTAssertEqual(html.components(separatedBy: "&lt;script&gt;alert(&#39;pwned&#39;)&lt;/script&gt;&quot; onmouseover=&quot;alert(2)").count - 1,
                       5, "alt, data-title, data-details, data-source and the flag's title each hold it escaped: \(html)")
        // Exactly the tags the tile writes, whatever the data: li, a, img, span.
        let tags = html.matches(of: #/<([a-z]+)/#).map { String($0.output.1) }
        XCTAssertEqual(Set(tags), ["ul", "li", "a", "img", "span"], html)
    }

    func testPagesEscapeTheirTitleAndCarryAContentSecurityPolicy() {
        let page = Page(title: "</title><script>alert(1)</script>", body: .text("x"), assets: .linked(stylesheet: "s.css", script: "s.js"))
        XCTAssertTrue(page.html.contains("<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"), page.html)
        XCTAssertTrue(page.html.contains("content=\"default-src &#39;none&#39;; img-src &#39;self&#39; file:;"), page.html)
        XCTAssertTrue(page.html.hasPrefix("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"), page.html)
        XCTAssertTrue(page.html.contains("<link rel=\"stylesheet\" href=\"s.css\">"), page.html)
        XCTAssertTrue(page.html.contains("<script src=\"s.js\" defer></script></body></html>"), page.html)
    }

    /// A page that stands alone inlines its code and allows exactly that code by hash, nothing else.
    func testAnInlinePageAllowsOnlyItsOwnCodeByHash() throws {
        let html = Page(title: "Run", body: .empty, assets: .inline).html
        XCTAssertTrue(html.contains("<style>" + Stylesheet.css + "</style>"))
        XCTAssertTrue(html.contains("<script>" + ViewerScript.source + "</script>"))
        let policy = try XCTUnwrap(html.firstMatch(of: #/Content-Security-Policy" content="([^"]*)"/#)?.output.1)
        XCTAssertTrue(policy.contains("script-src &#39;sha256-"), String(policy))
        XCTAssertFalse(policy.contains("unsafe-inline"), String(policy))
        // The hash is that of the script's bytes (echo -n ... | openssl dgst -sha256 -binary | base64).
        XCTAssertTrue(policy.contains(HTMLEscaping.attribute(Page.hashSource(ViewerScript.source))))
        XCTAssertNotEqual(Page.hashSource(ViewerScript.source), Page.hashSource(ViewerScript.source + " "))
    }

    func testTheStylesheetFollowsTheSystemColourSchemeAndLoadsNothing() {
        XCTAssertTrue(Stylesheet.css.contains("@media (prefers-color-scheme: dark)"))
        XCTAssertFalse(Stylesheet.css.contains("url("), "no fonts or images from anywhere")
        XCTAssertFalse(Stylesheet.css.contains("@import"))
        XCTAssertFalse(ViewerScript.source.contains("innerHTML"), "the viewer writes text with textContent only")
        XCTAssertFalse(ViewerScript.source.contains("http"), "the viewer loads nothing from elsewhere")
    }
}
