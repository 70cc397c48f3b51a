import Foundation
import Testing

@testable import LifeSignalLanguage

/// The hand-written CLDR plural rules agree with ICU's, as the toolchain ships it (Foundation's
/// own copy, `lib_FoundationICU`, whose C functions carry a `swift_` prefix), for 0…1000.
@Suite("Plural rules")
struct PluralRuleTests {
    typealias Open = @convention(c) (UnsafePointer<CChar>, UnsafeMutablePointer<Int32>) -> OpaquePointer?
    typealias Select = @convention(c) (OpaquePointer, Double, UnsafeMutablePointer<UInt16>, Int32, UnsafeMutablePointer<Int32>) -> Int32
    typealias Close = @convention(c) (OpaquePointer) -> Void

    /// ICU's `uplrules_open`/`uplrules_select`/`uplrules_close`, found in the running process
    /// (Foundation has loaded its ICU by the time anything formats a date).
    static func icu() -> (open: Open, select: Select, close: Close)? {
        _ = Date.now.formatted(.dateTime.locale(Locale(identifier: "de_DE")))
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        func find<T>(_ name: String, as: T.Type) -> T? {
            (dlsym(handle, "swift_\(name)") ?? dlsym(handle, name)).map { unsafeBitCast($0, to: T.self) }
        }
        guard let open = find("uplrules_open", as: Open.self), let select = find("uplrules_select", as: Select.self),
            let close = find("uplrules_close", as: Close.self)
        else { return nil }
        return (open, select, close)
    }

    @Test(arguments: ["en", "de", "es", "fr", "ar"])
    func agreeWithICU(_ tag: String) throws {
        let icu = try #require(Self.icu(), "ICU's plural rules are not reachable in this process")
        var status: Int32 = 0
        let rules = try #require(icu.open(tag, &status))
        defer { icu.close(rules) }
        #expect(status <= 0)
        let language = try #require(Language(tag))
        var disagreements: [String] = []
        for n in 0...1000 {
            var buffer = [UInt16](repeating: 0, count: 16)
            var status: Int32 = 0
            let length = icu.select(rules, Double(n), &buffer, 16, &status)
            let keyword = String(decoding: buffer[0..<Int(max(0, length))], as: UTF16.self)
            let mine = PluralCategory.of(n, in: language).rawValue
            if keyword != mine { disagreements.append("\(n): ICU \(keyword), ours \(mine)") }
        }
        #expect(disagreements == [])
    }

    /// Beyond 1000: the millions that take `many` in Spanish and French.
    @Test func millions() {
        #expect(PluralCategory.of(1_000_000, in: Language("es")!) == .many)
        #expect(PluralCategory.of(2_000_000, in: Language("fr")!) == .many)
        #expect(PluralCategory.of(1_000_001, in: Language("fr")!) == .other)
        #expect(PluralCategory.of(1_000_000, in: Language("de")!) == .other)
        #expect(PluralCategory.of(102, in: Language("ar")!) == .other)
        #expect(PluralCategory.of(111, in: Language("ar")!) == .many)
    }
}
