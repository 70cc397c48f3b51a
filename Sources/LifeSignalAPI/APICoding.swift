import Foundation
import LifeSignalModels

/// The JSON conventions of `/v1`, shared by the server and the clients: camelCase keys,
/// dates as ISO 8601 UTC with milliseconds (`2026-11-21T09:30:00.000Z`).
public enum APICoding {
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISODate.format(date))
        }
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = ISODate.parse(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Expected an ISO 8601 date like 2026-11-21T09:30:00Z, got \(text)")
            }
            return date
        }
        return decoder
    }
}
