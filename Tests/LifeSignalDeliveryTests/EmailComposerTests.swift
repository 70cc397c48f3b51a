import Foundation
import Testing
@testable import LifeSignalDelivery

@Suite struct EmailComposerTests {
    @Test func dotStuffingDoublesLeadingDotsAndTerminates() {
        #expect(SMTPClient.dotStuffed("a\n.b\n.\nc") == "a\r\n..b\r\n..\r\nc\r\n.")
        #expect(SMTPClient.dotStuffed("x\r\n") == "x\r\n.")
    }

    @Test func quotedPrintableEncodesWhatMustBeAndBreaksSoftly() {
        #expect(EmailComposer.quotedPrintable("a=b café") == "a=3Db caf=C3=A9")
        #expect(EmailComposer.quotedPrintable("end \nnext") == "end=20\r\nnext")
        let long = EmailComposer.quotedPrintable(String(repeating: "é", count: 40))
        #expect(long.components(separatedBy: "\r\n").allSatisfy { $0.count <= 76 })
        #expect(long.replacingOccurrences(of: "=\r\n", with: "") == String(repeating: "=C3=A9", count: 40))
    }

    @Test func nonASCIIHeadersBecomeFoldedEncodedWords() {
        let subject = EmailComposer.encodedHeaderText(String(repeating: "ü", count: 40), headerName: "Subject")
        let words = subject.components(separatedBy: "\r\n ")
        #expect(words.count == 3)  // 80 bytes in words of at most 39
        #expect(words.allSatisfy { $0.hasPrefix("=?UTF-8?B?") && $0.hasSuffix("?=") && $0.count <= 64 })
        #expect(EmailComposer.encodedHeaderText("Hi\r\nBcc: evil@example.com", headerName: "Subject") == "Hi Bcc: evil@example.com")
    }

    @Test func dateIsRFC5322() {
        #expect(EmailComposer.rfc5322Date(Date(timeIntervalSince1970: 1_772_529_120)) == "Tue, 03 Mar 2026 09:12:00 +0000")
    }
}
