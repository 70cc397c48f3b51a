import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalModels

/// "What happens if I miss tonight" and the drill that proves every channel works.
struct DrillController {
    let drills: Drills

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.previewTimeline) { _, context in
            try await drills.timelinePreview(context.caller)
        }
        router.on(Operations.runDrill) { _, context in
            try await drills.runDrill(context.caller)
        }
        router.on(Operations.getDrill) { input, context in
            try await drills.drill(context.caller, id: input.id)
        }
    }
}
