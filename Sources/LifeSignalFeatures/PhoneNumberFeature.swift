import ComposableCore
import LifeSignalRules

/// A phone number typed the way people write it in their country: the region picked and the
/// national number as typed ("07700 900123"). `e164()` is the form the API takes. Used by
/// sign-in, the phone change and the text and call channels, so the three fields behave as
/// one.
public struct PhoneNumberFeature: Reducer, Sendable {
    public struct State: Equatable, Sendable {
        public var regions: [PhoneRegion] = PhoneRegion.all
        public var region: PhoneRegion
        /// As typed, without the calling code (or with its own `+`).
        public var number: String

        public init(region: PhoneRegion = .unitedStates, number: String = "") {
            self.region = region
            self.number = number
        }

        /// The number in international form, or the sentence saying what is wrong with it.
        public func e164() throws(ValidationError) -> String { try region.e164(number) }
    }

    @CasePathable
    public enum Action: Equatable, Sendable {
        case regionSelected(PhoneRegion)
        case numberChanged(String)
    }

    public init() {}

    public var body: some ReducerOf<Self> {
        Reduce { state, action in
            switch action {
            case let .regionSelected(region):
                state.region = region
            case let .numberChanged(number):
                state.number = number
            }
            return .none
        }
    }
}
