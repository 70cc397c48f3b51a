import AsyncHTTPClient
import Foundation
import Hummingbird
import LifeSignalAPI
import LifeSignalCore
import LifeSignalStore
import Logging

/// Builds the whole server from its configuration: store, service, routes and background
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
    let service = LifeSignalService(
        store: store, environment: environment,
        configuration: config.serviceConfiguration,
        codeSender: codeSender ?? config.codeSender())
    let router = buildRouter(
        service: service, clock: clock, twilioAuthToken: config.channels.twilioAuthToken,
        callbackBaseURL: config.baseURL, vapidPublicKey: config.channels.vapidPublicKey(),
        codeCall: config.codeCall, clientAddresses: ClientAddressResolver(trustedProxies: config.trustedProxies),
        telemetry: telemetry, deliveryStallSeconds: config.observability.deliveryStallSeconds)
    var services: [any Service] = [DatabaseCloser(store: store)]
    if config.observability.retention { services.append(RetentionService(service: service)) }
    services.append(LiveStreamKeepAlive(hub: service.events))
    // Several instances on one PostgreSQL database: live events cross instances through
    // LISTEN/NOTIFY (see PostgresEventRelay). Nothing to do on SQLite (one instance).
    if let channel = store.eventChannel {
        let relay = PostgresEventRelay(channel: channel, hub: service.events, logger: logger)
        service.events.setRelay(relay.relay)
        services.append(relay)
    }
    if config.runEngine {
        let engine = EscalationEngine(service: service, instance: config.instanceName)
        let httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let registry = try config.channels.registry(
            httpClient: httpClient, publicBaseURL: config.baseURL, logger: config.development ? developmentLogger(config) : logger)
        // Shut down in reverse order: the engine stops first, then the worker (which gives what
        // was handed to it and not taken back to the poll), then the HTTP client it sends with.
        services.append(HTTPClientCloser(client: httpClient))
        // A restart takes back what its dead predecessor on this host and port had leased.
        let reclaimed = try await service.reclaimDeadDeliveryLeases(stem: config.deliveryOwnerStem, current: config.deliveryOwner)
        if reclaimed > 0 {
            logger.notice("took back deliveries leased by this instance's previous run", metadata: ["count": "\(reclaimed)"])
        }
        services.append(DeliveryService(worker: DeliveryService.worker(for: service, registry: registry, owner: config.deliveryOwner)))
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
    service: LifeSignalService, clock: ManualClock? = nil, twilioAuthToken: String? = nil,
    callbackBaseURL: String = "http://localhost:8080", vapidPublicKey: String? = nil,
    codeCall: CodeCall? = nil, clientAddresses: ClientAddressResolver = .init(),
    telemetry: Telemetry? = nil, deliveryStallSeconds: TimeInterval = 120
) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(
        middleware: RequestObservationMiddleware(
            metrics: service.metrics.factory, makeID: { service.environment.uuid().uuidString.lowercased() }))
    router.add(middleware: ErrorMiddleware())
    if !clientAddresses.trustedProxies.isEmpty { router.add(middleware: ClientAddressMiddleware(resolver: clientAddresses)) }
    HealthController(service: service, deliveryStallSeconds: deliveryStallSeconds).addRoutes(to: router)
    if let telemetry { MetricsController(service: service, telemetry: telemetry).addRoutes(to: router) }
    OpenAPIController().addRoutes(to: router)
    if let clock { TestClockController(clock: clock).addRoutes(to: router) }
    TwilioCallbackController(service: service, authToken: twilioAuthToken, baseURL: callbackBaseURL).addRoutes(to: router)
    if let codeCall { CodeCallController(codeCall: codeCall, now: { service.now }).addRoutes(to: router) }

    let api = router.group().add(middleware: AuthMiddleware(service: service))
    AuthController(service: service).addPublicRoutes(to: api)
    let authenticated = api.group(context: AuthenticatedContext.self)
    AuthController(service: service).addRoutes(to: authenticated)
    ProfileController(service: service).addRoutes(to: authenticated)
    CheckInController(service: service).addRoutes(to: authenticated)
    ContactController(service: service).addRoutes(to: authenticated)
    AlertController(service: service).addRoutes(to: authenticated)
    NotificationController(service: service).addRoutes(to: authenticated)
    DrillController(service: service).addRoutes(to: authenticated)
    EventStreamController(service: service).addRoutes(to: authenticated)
    WebController(service: service, vapidPublicKey: vapidPublicKey).addRoutes(to: router)
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
