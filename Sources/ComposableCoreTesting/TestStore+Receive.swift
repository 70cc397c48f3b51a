import ComposableCore

extension TestStore where Action: Equatable {
    /// Asserts that the next action an effect sent is `expectedAction`, and how it changed state.
    public func receive(
        _ expectedAction: Action,
        timeout: Duration? = nil,
        assert update: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await self.receiveAction(
            matching: { $0 == expectedAction },
            describing: String(customDumping: expectedAction),
            mismatch: { received in
                """
                Received unexpected action: …

                \(diff(expectedAction, received, format: .proportional) ?? String(customDumping: received))

                (Expected: −, Received: +)
                """
            },
            timeout: timeout, update, SourceLocation(fileID, filePath, line, column)
        )
    }
}

extension TestStore {
    /// Asserts that the next action an effect sent is in the case `actionCase`
    /// (`\.checkInResponse.success`), and how it changed state.
    public func receive<Value>(
        _ actionCase: CaseKeyPath<Action, Value>,
        timeout: Duration? = nil,
        assert update: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let casePath = AnyCasePath(actionCase)
        await self.receiveAction(
            matching: { casePath.extract(from: $0) != nil },
            describing: "an action matching \(actionCase)",
            mismatch: { received in
                "Received unexpected action: …\n\n\(String(customDumping: received))"
            },
            timeout: timeout, update, SourceLocation(fileID, filePath, line, column)
        )
    }

    /// Asserts that the next action an effect sent is in the case `actionCase` with associated
    /// value `value`, and how it changed state.
    public func receive<Value: Equatable>(
        _ actionCase: CaseKeyPath<Action, Value>,
        _ value: Value,
        timeout: Duration? = nil,
        assert update: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let casePath = AnyCasePath(actionCase)
        await self.receiveAction(
            matching: { casePath.extract(from: $0) == value },
            describing: "an action matching \(actionCase) with \(String(customDumping: value))",
            mismatch: { received in
                let message = "Received unexpected action: …\n\n"
                guard let receivedValue = casePath.extract(from: received) else {
                    return message + String(customDumping: received)
                }
                return message + """
                    \(diff(value, receivedValue, format: .proportional) ?? "")

                    (Expected: −, Received: +)
                    """
            },
            timeout: timeout, update, SourceLocation(fileID, filePath, line, column)
        )
    }

    /// Asserts that the next action an effect sent satisfies `isMatching`.
    public func receive(
        _ isMatching: (_ action: Action) -> Bool,
        timeout: Duration? = nil,
        assert update: ((_ state: inout State) throws -> Void)? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await self.receiveAction(
            matching: isMatching,
            describing: "an action matching the predicate",
            mismatch: { "Received unexpected action: …\n\n\(String(customDumping: $0))" },
            timeout: timeout, update, SourceLocation(fileID, filePath, line, column)
        )
    }

    /// Drops the received actions not yet asserted, accepting the state they led to.
    /// With `strict`, having nothing to skip is reported.
    public func skipReceivedActions(
        strict: Bool = true,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await Task.megaYield()
        guard let last = self.received.last else {
            if strict {
                SourceLocation(fileID, filePath, line, column).report(
                    "There were no received actions to skip."
                )
            }
            return
        }
        self.assertedState = last.state
        self.received.removeAll()
    }

    /// Cancels every effect still running, so the test can end without waiting for them.
    /// With `strict`, having nothing to cancel is reported.
    public func skipInFlightEffects(
        strict: Bool = true,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        await Task.megaYield()
        guard self.core.effects.hasInFlightEffects else {
            if strict {
                SourceLocation(fileID, filePath, line, column).report(
                    "There were no in-flight effects to skip."
                )
            }
            return
        }
        self.core.effects.cancelAll()
    }

    private func receiveAction(
        matching isMatching: (Action) -> Bool,
        describing expected: String,
        mismatch: (Action) -> String,
        timeout: Duration?,
        _ update: ((inout State) throws -> Void)?,
        _ location: SourceLocation
    ) async {
        let timeout = timeout ?? self.timeout
        // Wait only while something could still send: with no effect running, nothing will come.
        _ = await poll(timeout: timeout) {
            self.exhaustivity == .on
                ? !self.received.isEmpty || !self.core.effects.hasInFlightEffects
                : self.received.contains { isMatching($0.action) } || !self.core.effects.hasInFlightEffects
        }
        if self.exhaustivity == .off {
            // Skip what the test does not care about, up to the first match.
            guard let index = self.received.firstIndex(where: { isMatching($0.action) }) else {
                location.report("Expected to receive \(expected), but received none.")
                return
            }
            if index > 0 { self.assertedState = self.received[index - 1].state }
            self.received.removeFirst(index)
        }
        guard !self.received.isEmpty else {
            let waited = self.core.effects.hasInFlightEffects ? " after \(timeout)" : ""
            location.report("Expected to receive \(expected), but received none\(waited).")
            return
        }
        let next = self.received.removeFirst()
        self.origins.append((next.action, next.tasks, location))
        guard isMatching(next.action) else {
            location.report(mismatch(next.action))
            self.assertedState = next.state
            return
        }
        self.assertState(from: self.assertedState, to: next.state, update, location)
        // The effect that sent this action is usually about to end: give it a moment to, so
        // the end-of-test check does not race a task that has already done its work (on a
        // loaded machine its last step can be seen late). Effects that keep running cost
        // this wait once per receive and are still reported at the end.
        if self.received.isEmpty {
            _ = await poll(timeout: .milliseconds(200)) { !self.core.effects.hasInFlightEffects || !self.received.isEmpty }
        }
    }
}
