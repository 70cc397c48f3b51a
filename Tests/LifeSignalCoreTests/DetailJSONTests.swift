import Foundation
import Testing

@testable import LifeSignalCore

/// Timeline detail is written by hand for speed; it must stay byte for byte what
/// JSONSerialization writes (sorted keys, slashes unescaped).
struct DetailJSONTests {
    @Test("Detail.json matches JSONSerialization for every ASCII character and some Unicode")
    func matchesFoundation() {
        var samples = ["", "plain", "a\"b", "back\\slash", "sl/ash", "tab\tnl\ncr\r", "\u{8}\u{c}", "\u{0}\u{1}\u{1f}",
                       "\u{7f}", "é ü 中文 🆘", "\u{2028}\u{2029}", "x</script>", "Checked in (app)"]
        samples += (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        for text in samples {
            for fields in [["k": text], ["id": text, "source": "app", "deadline": text + "x"], ["zeta": text, "alpha": "1"]] {
                #expect(Detail.json(fields) == Detail.foundationJSON(fields), "\(Array(text.unicodeScalars))")
            }
        }
        // Keys Foundation sorts its own way still go through it.
        let odd = ["Zeta": "1", "alpha": "2", "_u": "3", "10": "4", "9": "5"]
        #expect(Detail.json(odd) == Detail.foundationJSON(odd))
    }
}
