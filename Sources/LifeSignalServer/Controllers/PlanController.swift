import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalLanguage
import LifeSignalModels

/// Plans: "check on me by 18:00" (`/v1/me/plans`). Only the person herself reaches these;
/// her responders see a plan on its alert, never here.
struct PlanController {
    let plans: Plans

    func addRoutes(to router: some RouterMethods<AuthenticatedContext>) {
        router.on(Operations.startPlan) { body, context in
            try await plans.start(
                context.caller,
                PlanRequest(
                    title: body.title, dueAt: body.dueAt, details: body.details, instruction: body.instruction,
                    instructionAt: body.instructionAt, tellResponders: body.tellResponders ?? true,
                    checkInEveryHours: body.checkInEveryHours))
        }
        router.on(Operations.listPlans) { _, context in
            try await plans.list(context.caller)
        }
        router.on(Operations.extendPlan) { input, body, context in
            guard (body.minutes == nil) != (body.until == nil) else {
                throw ServiceError.invalid(field: "minutes", Said("validation.plan.extension"))
            }
            return try await plans.extend(context.caller, plan: input.id, minutes: body.minutes, until: body.until)
        }
        router.on(Operations.finishPlan) { input, body, context in
            try await plans.done(
                context.caller, plan: input.id,
                source: CheckInController.source(body.source, session: context.caller.credential.session))
        }
        router.on(Operations.listContactPlans) { input, context in
            try await plans.headlines(context.caller, of: input.id)
        }
        router.on(Operations.cancelPlan) { input, context in
            _ = try await plans.cancel(context.caller, plan: input.id)
        }
    }
}
