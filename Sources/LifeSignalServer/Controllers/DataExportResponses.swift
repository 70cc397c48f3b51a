import Foundation
import Hummingbird
import LifeSignalAPI
import LifeSignalModels
import LifeSignalRules

/// The two files of a person's data export, as the API and the web app both answer them:
/// offered for download (`Content-Disposition`), never cached.
enum DataExportResponses {
    static func json(_ export: DataExport) throws -> Response {
        let encoder = APICoding.encoder
        encoder.outputFormatting.insert(.prettyPrinted)
        return file(
            try encoder.encode(export), contentType: "application/json; charset=utf-8",
            name: DataExportFile.name(at: export.exportedAt, extension: "json"))
    }

    static func checkIns(_ checkIns: [CheckIn], at now: Date) -> Response {
        file(
            Data(CheckInCSV.render(checkIns).utf8), contentType: "text/csv; charset=utf-8; header=present",
            name: DataExportFile.checkInsName(at: now))
    }

    private static func file(_ data: Data, contentType: String, name: String) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: contentType, .cacheControl: "no-store", .contentDisposition: "attachment; filename=\"\(name)\""],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
