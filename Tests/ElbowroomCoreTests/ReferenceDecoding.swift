import Foundation
@testable import ElbowroomCore

// The slow, obvious form the hand-written cache reader is held equal to (CacheFileReaderTests):
// test support, not shipped code.
extension CacheFile {
    /// `decode` through `JSONDecoder` and `Codable`: what the hand-written reader must equal.
    static func decodeWithCodable(_ data: Data) -> CacheFile? {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard let file = try? decoder.decode(CacheFile.self, from: data),
              file.version == currentVersion, file.datesAreSane else { return nil }
        return file
    }
}
