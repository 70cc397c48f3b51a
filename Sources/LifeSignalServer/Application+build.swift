import AsyncHTTPClient
import Foundation
import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalStore
import Logging

/// Builds the whole server from its configuration: store, use cases, routes and background
/// services. `lifesignal serve` runs what this returns; tests call it too.
///
/// `telemetry` holds the metrics registry `GET /metrics` shows; each application gets its own
/// unless one is passed (`lifesignal serve` passes the one it bootstrapped swift-metrics with).
public func buildApplication(
    _ config: AppConfiguration, clock: ManualClock? = nil, codeSender: SignInCodeSender? = nil,
    telemetry: Telemetry = Telemetry()
) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "lifesignal")
    logger.logLevel = config.logLevel
    let store = try await Store.open(config.database, logger: logger)
    if config.testClock && !(config.development && config.isLoopbackHost) {
        throw ConfigurationError("--test-clock needs --dev and a loopback --host")
    }
    let clock = clock ?? (config.testClock ? ManualClock(Date()) : nil)
    var environment = ServiceEnvironment.live(logger: logger)
    if let clock { environment.now = { clock.now } }
    environment.metrics = telemetry.metrics
    let core = ServiceCore(
        store: store, environment: environment,
        configuration: config.serviceConfiguration,
        codeSender: codeSender ?? config.codeSender())
    let router = buildRouter(
        core: core, clock: clock, twilioAuthToken: config.channels.twilioAuthToken,
        callbackBaseURL: config.baseURL, vapidPublicKey: config.channels.vapidPublicKey(),
        codeCall: config.codeCall, clientAddresses: ClientAddressResolver(trustedProxies: config.trustedProxies),
        telemetry: telemetry, deliveryStallSeconds: config.observability.deliveryStallSeconds)
    var services: [any Service] = [DatabaseCloser(store: store)]
    if config.observability.retention { services.append(RetentionService(core: core)) }
    services.append(LiveStreamKeepAlive(hub: core.events))
    // Several instances on one PostgreSQL database: live events cross instances through
    // LISTEN/NOTIFY (see PostgresEventRelay). Nothing to do on SQLite (one instance).
    if let channel = store.eventChannel {
        let relay = PostgresEventRelay(channel: channel, hub: core.events, logger: logger)
        core.events.setRelay(relay.relay)
        services.append(relay)
    }
    if config.runEngine {
        let engine = EscalationEngine(core: core, instance: config.instanceName)
        let httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let registry = try config.channels.registry(
            httpClient: httpClient, publicBaseURL: config.baseURL, logger: config.development ? developmentLogger(config) : logger)
        // Shut down in reverse order: the engine stops first, then the worker (which gives what
        // was handed to it and not taken back to the poll), then the HTTP client it sends with.
        services.append(HTTPClientCloser(client: httpClient))
        // A restart takes back what its dead predecessor on this host and port had leased.
        let reclaimed = try await DeliveryService.reclaimDeadLeases(
            in: core, stem: config.deliveryOwnerStem, current: config.deliveryOwner)
        if reclaimed > 0 {
            logger.notice("took back deliveries leased by this instance's previous run", metadata: ["count": "\(reclaimed)"])
        }
        services.append(DeliveryService(worker: DeliveryService.worker(for: core, registry: registry, owner: config.deliveryOwner)))
        services.append(EscalationService(engine: engine))
    }
    return Application(
        router: router,
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "LifeSignal"),
        services: services,
        logger: logger)
}

/// The routes of the JSON API, the health checks and the OpenAPI document.
public func buildRouter(
    core: ServiceCore, clock: ManualClock? = nil, twilioAuthToken: String? = nil,
    callbackBaseURL: String = "http://localhost:8080", vapidPublicKey: String? = nil,
    codeCall: CodeCall? = nil, clientAddresses: ClientAddressResolver = .init(),
    telemetry: Telemetry? = nil, deliveryStallSeconds: TimeInterval = 120
) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(
        middleware: RequestObservationMiddleware(
            metrics: core.metrics.factory, makeID: { core.environment.uuid().uuidString.lowercased() }))
    router.add(middleware: ErrorMiddleware())
    if !clientAddresses.trustedProxies.isEmpty { router.add(middleware: ClientAddressMiddleware(resolver: clientAddresses)) }
    HealthController(health: Health(core), deliveryStallSeconds: deliveryStallSeconds).addRoutes(to: router)
    if let telemetry { MetricsController(health: Health(core), metrics: core.metrics, telemetry: telemetry).addRoutes(to: router) }
    OpenAPIController().addRoutes(to: router)
    if let clock { TestClockController(clock: clock).addRoutes(to: router) }
    TwilioCallbackController(
        notifications: Notifications(core), replies: Replies(core), authToken: twilioAuthToken, baseURL: callbackBaseURL
    ).addRoutes(to: router)
    if let codeCall { CodeCallController(codeCall: codeCall, now: { core.now }).addRoutes(to: router) }

    let api = router.group().add(middleware: AuthMiddleware(accounts: Accounts(core)))
    let accounts = Accounts(core)
    let checkIns = CheckIns(core)
    let incidents = Incidents(core)
    AuthController(accounts: accounts).addPublicRoutes(to: api)
    let authenticated = api.group(context: AuthenticatedContext.self)
    AuthController(accounts: accounts).addRoutes(to: authenticated)
    ProfileController(profiles: Profiles(core), accounts: accounts).addRoutes(to: authenticated)
    CheckInController(checkIns: checkIns).addRoutes(to: authenticated)
    ContactController(contacts: Contacts(core), pings: Pings(core), incidents: incidents, checkIns: checkIns)
        .addRoutes(to: authenticated)
    AlertController(incidents: incidents).addRoutes(to: authenticated)
    NotificationController(notifications: Notifications(core), channels: Channels(core), timeline: Timeline(core))
        .addRoutes(to: authenticated)
    DrillController(drills: Drills(core)).addRoutes(to: authenticated)
    EventStreamController(checkIns: checkIns, live: LiveUpdates(core), metrics: core.metrics).addRoutes(to: authenticated)
    WebController(core: core, vapidPublicKey: vapidPublicKey).addRoutes(to: router)
    return router
}

/// Development: the log channel's messages go out under a label that says nothing was sent.
func developmentLogger(_ config: AppConfiguration) -> Logger {
    var logger = Logger(label: "DEVELOPMENT (not sent)")
    logger.logLevel = min(config.logLevel, .notice)
    return logger
}

import ServiceLifecycle

/// Shuts the delivery HTTP client down with the application.
struct HTTPClientCloser: Service {
    let client: HTTPClient
    func run() async throws {
        try? await gracefulShutdown()
        try await client.shutdown()
    }
}

/// Closes the database when the application shuts down.
struct DatabaseCloser: Service {
    let store: Store
    func run() async throws {
        try? await gracefulShutdown()
        await store.close()
    }
}
