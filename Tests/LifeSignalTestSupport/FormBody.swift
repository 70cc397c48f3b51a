import Foundation

/// `application/x-www-form-urlencoded` bodies, as the local provider fakes read them.
public enum FormBody {
    public static func decode(_ body: String) -> [String: String] {
        var form: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            form[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return form
    }
}
