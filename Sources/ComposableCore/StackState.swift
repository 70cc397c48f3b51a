/// The state of a navigation stack: an ordered collection of feature states, each with a
/// stable ``StackElementID``. Mirrors TCA's `StackState`.
///
/// ```swift
/// struct State: Equatable {
///   var path = StackState<Path.State>()
/// }
/// state.path.append(.detail(DetailFeature.State()))
/// ```
///
/// Ids are handed out by the stack itself, in order from 0, so the same sequence of pushes
/// gives the same ids in the app and in a `TestStore`'s expected state.
public struct StackState<Element> {
    fileprivate struct Entry {
        let id: StackElementID
        var element: Element
    }

    private var entries: [Entry] = []
    private var nextGeneration = 0

    /// Creates an empty stack.
    public init() {}

    /// Creates a stack of `elements`, with ids from 0.
    public init(_ elements: some Sequence<Element>) {
        self.append(contentsOf: elements)
    }

    /// The ids of the elements, bottom to top.
    public var ids: [StackElementID] { self.entries.map(\.id) }

    /// The element with `id`. Assigning `nil` removes it; assigning to an id not in the stack
    /// pushes the element with that id (as a `StackAction.push` does), which is how a test
    /// asserts a push: `$0.path[id: 1] = .detail(…)`.
    public subscript(id id: StackElementID) -> Element? {
        get { self.entries.first { $0.id == id }?.element }
        set {
            guard let index = self.entries.firstIndex(where: { $0.id == id }) else {
                if let newValue { _ = self.push(newValue, id: id) }
                return
            }
            if let newValue {
                self.entries[index].element = newValue
            } else {
                self.entries.remove(at: index)
            }
        }
    }

    /// Removes the element with `id` and everything above it.
    public mutating func pop(from id: StackElementID) {
        guard let index = self.entries.firstIndex(where: { $0.id == id }) else { return }
        self.entries.removeSubrange(index...)
    }

    /// Removes everything above the element with `id`.
    public mutating func pop(to id: StackElementID) {
        guard let index = self.entries.firstIndex(where: { $0.id == id }) else { return }
        self.entries.removeSubrange((index + 1)...)
    }

    /// Pushes `element` with a given id (from a `StackAction.push`); ids must grow.
    mutating func push(_ element: Element, id: StackElementID) -> Bool {
        guard self.entries.last.map({ $0.id < id }) ?? true else { return false }
        self.entries.append(Entry(id: id, element: element))
        self.nextGeneration = Swift.max(self.nextGeneration, id.generation + 1)
        return true
    }
}

extension StackState: RandomAccessCollection, MutableCollection, RangeReplaceableCollection {
    public var startIndex: Int { self.entries.startIndex }
    public var endIndex: Int { self.entries.endIndex }

    public subscript(position: Int) -> Element {
        get { self.entries[position].element }
        set { self.entries[position].element = newValue }
    }

    public mutating func replaceSubrange(
        _ subrange: Range<Int>, with newElements: some Collection<Element>
    ) {
        let newEntries = newElements.map { element in
            defer { self.nextGeneration += 1 }
            return Entry(id: StackElementID(generation: self.nextGeneration), element: element)
        }
        self.entries.replaceSubrange(subrange, with: newEntries)
    }
}

extension StackState: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: Element...) {
        self.init(elements)
    }
}

extension StackState: Equatable where Element: Equatable {
    // Ids are compared too: they are how actions address elements.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entries.map(\.id) == rhs.entries.map(\.id)
            && lhs.entries.map(\.element) == rhs.entries.map(\.element)
    }
}

extension StackState: Hashable where Element: Hashable {
    public func hash(into hasher: inout Hasher) {
        for entry in self.entries {
            hasher.combine(entry.id)
            hasher.combine(entry.element)
        }
    }
}

extension StackState: Sendable where Element: Sendable {}
extension StackState.Entry: Sendable where Element: Sendable {}

extension StackState: CustomDumpReflectable {
    public var customDumpMirror: Mirror {
        Mirror(
            self,
            children: self.entries.map { (label: "#\($0.id.generation)", value: $0.element as Any) },
            displayStyle: .struct
        )
    }
}

/// The stable id of an element of a ``StackState``. Integer literals work in tests:
/// `$0.path[id: 0]`.
public struct StackElementID: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral {
    /// The position in the order of pushes, from 0.
    public let generation: Int

    public init(generation: Int) {
        self.generation = generation
    }

    public init(integerLiteral value: Int) {
        self.init(generation: value)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.generation < rhs.generation
    }
}

extension StackElementID: CustomDumpStringConvertible {
    public var customDumpDescription: String { "#\(self.generation)" }
}
