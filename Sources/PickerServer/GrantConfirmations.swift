import PhotoCore
import Synchronization
import SystemKit

/// The second step of Add: the page first asks for a confirmation of exactly the photos it
/// will grant and shows the person what that means; the grant is accepted only with that
/// confirmation, for exactly those ids, and not sooner than `minimumDelay` after it was
/// issued. A script that loads the page and posts one Add at once is refused, and a
/// confirmation cannot be stretched to other photos.
final class GrantConfirmations: Sendable {
    /// How long a confirmation must be on screen before it can be used.
    static let minimumDelay: Double = 0.5
    /// How long it stays usable.
    static let lifetime: Double = 600

    private struct Issued {
        var value: String
        var ids: [AssetID]
        var at: Double
    }

    /// Only the newest confirmation counts; a used one is gone.
    private let current = Mutex<Issued?>(nil)
    private let clock: @Sendable () -> Double

    init(clock: @escaping @Sendable () -> Double = GrantConfirmations.monotonicSeconds) {
        self.clock = clock
    }

    /// A new confirmation for `ids` (replacing any earlier one).
    func issue(for ids: [AssetID]) -> String {
        let value = PickerGate.randomHex(16)
        let issued = Issued(value: value, ids: ids, at: clock())
        current.withLock { $0 = issued }
        return value
    }

    /// Why a grant is refused.
    enum Refusal: Error, Equatable {
        case missing
        case otherPhotos
        case tooSoon
        case expired

        var reason: String {
            switch self {
            case .missing: "confirm what will be shared first"
            case .otherPhotos: "the confirmation was for other photos; confirm again"
            case .tooSoon: "confirmed too quickly; look at what will be shared, then confirm"
            case .expired: "the confirmation expired; confirm again"
            }
        }
    }

    /// Spends the confirmation `value` for `ids`; any refusal also spends it, so a guess
    /// gets one try.
    func redeem(_ value: String?, for ids: [AssetID]) -> Result<Void, Refusal> {
        let now = clock()
        return current.withLock { (issued: inout Issued?) -> Result<Void, Refusal> in
            guard let held = issued, let value, PickerGate.equal(held.value, value) else { return .failure(.missing) }
            issued = nil
            let age = now - held.at
            if age < Self.minimumDelay { return .failure(.tooSoon) }
            if age > Self.lifetime { return .failure(.expired) }
            return held.ids == ids ? .success(()) : .failure(.otherPhotos)
        }
    }

    static let monotonicSeconds: @Sendable () -> Double = { SystemClock.monotonicSeconds() }
}
