import AsyncHTTPClient
import Foundation
import Hummingbird
import HummingbirdCore
import LifeSignalAPI
import LifeSignalCore
import LifeSignalDelivery
import LifeSignalStore
import Logging
import NIOCore

/// Builds the whole server from its configuration and dependencies: store, use cases, routes
/// and background services. `lifesignal serve` runs what this returns with `.live`
/// dependencies; every server test calls it too, with a manual clock and a code book, and
/// drives it in memory (`app.test(.router)`) or on a socket (`.live`).
public func buildApplication(
    _ config: AppConfiguration, dependencies: AppDependencies = .live
) async throws -> LifeSignalApplication {
    var logger = dependencies.logger ?? Logger(label: "lifesignal")
    if dependencies.logger == nil { logger.logLevel = config.logLevel }
    let store = try await Store.open(config.database, logger: logger)
    if config.testClock && !(config.development && config.isLoopbackHost) {
        throw ConfigurationError("--test-clock needs --dev and a loopback --host")
    }
    let clock = dependencies.clock ?? (config.testClock ? ManualClock(Date()) : nil)
    let telemetry = dependencies.telemetry ?? Telemetry()
    var environment = ServiceEnvironment.live(logger: logger)
    if let clock { environment.now = { clock.now } }
    if let uuid = dependencies.uuid { environment.uuid = uuid }
    if let randomBytes = dependencies.randomBytes { environment.randomBytes = randomBytes }
    environment.metrics = telemetry.metrics
    var service = dependencies.serviceConfiguration ?? config.serviceConfiguration
    if service.lifeSignalNumber == nil { service.lifeSignalNumber = config.channels.twilioFrom }
    let core = ServiceCore(
        store: store, environment: environment, configuration: service,
        codeSender: dependencies.codeSender ?? config.codeSender())
    try await core.sealStoredSecrets()
    if config.sealExistingHistory {
        let sealed = try await core.sealExistingHistory()
        if sealed > 0 { logger.notice("sealed the existing timelines with the server key", metadata: ["count": "\(sealed)"]) }
    }
    let useCases = UseCases(core)
    let settings = RouteSettings(
        twilioAuthToken: config.channels.twilioAuthToken, callbackBaseURL: config.baseURL,
        vapidPublicKey: config.channels.vapidPublicKey(), codeCall: config.codeCall,
        clientAddresses: ClientAddressResolver(trustedProxies: config.trustedProxies),
        deliveryStallSeconds: config.observability.deliveryStallSeconds, healthProbeLimit: config.observability.healthProbeLimit)
    let router = buildRouter(core: core, useCases: useCases, settings: settings, clock: clock, telemetry: telemetry)
    var services: [any Service] = [DatabaseCloser(store: store)]
    let identity = try InstanceIdentity.resolve(config)
    // Several instances on one PostgreSQL database watch each other's heartbeats and take a
    // dead one's deliveries over (see PeerWatchService). Shut down just before the database
    // closes, after the worker has given its work back. SQLite: one file, one server.
    if store.eventChannel != nil {
        if identity.generated {
            logger.notice(
                "no LIFESIGNAL_INSTANCE_ID: this run's id is made for it; after a crash its peers take its deliveries over once it has been silent 30 s",
                metadata: ["instance": "\(identity.owner)"])
        }
        let now = core.environment.wallClock()
        let run = InstanceRecord(
            id: identity.owner, instanceID: identity.id, name: config.instanceName, startedAt: now, lastSeen: now)
        services.append(PeerWatchService(core: core, instance: run))
    }
    var workerShutdown: WorkerShutdown?
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
        // A restart takes back what its dead predecessor (same instance id) had leased.
        let reclaimed = try await DeliveryService.reclaimDeadLeases(in: core, stem: identity.stem, current: identity.owner)
        if reclaimed > 0 {
            logger.notice("took back deliveries leased by this instance's previous run", metadata: ["count": "\(reclaimed)"])
        }
        let worker = DeliveryService.worker(for: core, registry: registry, owner: identity.owner)
        workerShutdown = worker.shutdown
        services.append(DeliveryService(worker: worker))
        services.append(EscalationService(engine: engine))
    }
    // `GET /v1/events` is held by a handler in each connection's pipeline, not a request's task
    // (`LiveStreamHandler`, decision 0069); the router's route answers what it refuses.
    let opener = LiveStreamOpener(
        accounts: useCases.accounts, checkIns: useCases.checkIns, live: useCases.live, metrics: core.metrics, logger: logger,
        makeID: { core.environment.uuid().uuidString.lowercased() }, serverName: "LifeSignal")
    core.events.setListenerDelivery { event, listeners in LiveStreamHandler.deliver(event, to: listeners) }
    // A connection whose first request opens a stream keeps no task either (`LiveHTTP1Channel`);
    // the last service, shut down right after the server, waits for those streams to end.
    let connections = LiveConnections()
    services.append(LiveStreamDrain(connections: connections))
    let application = Application(
        router: router,
        server: .liveHTTP1(
            configuration: .init(additionalChannelHandlers: [LiveStreamHandler(opener: opener)]), connections: connections),
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "LifeSignal"),
        services: services,
        logger: logger)
    return LifeSignalApplication(application: application, core: core, workerShutdown: workerShutdown, connections: connections)
}

/// What the routes need besides the use cases: the providers' callback settings, the Web
/// Push key, the proxies trusted for client addresses and the health checks' limits.
struct RouteSettings: Sendable {
    var twilioAuthToken: String?
    var callbackBaseURL: String
    var vapidPublicKey: String?
    var codeCall: CodeCall?
    var clientAddresses: ClientAddressResolver
    var deliveryStallSeconds: TimeInterval
    var healthProbeLimit: Duration
}

/// The routes of the JSON API, the web pages, the health checks and the OpenAPI document, all
/// over the one set of use cases.
func buildRouter(
    core: ServiceCore, useCases u: UseCases, settings: RouteSettings, clock: ManualClock?, telemetry: Telemetry
) -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(
        middleware: RequestObservationMiddleware(
            metrics: core.metrics.factory, makeID: { core.environment.uuid().uuidString.lowercased() }))
    router.add(middleware: ErrorMiddleware())
    if !settings.clientAddresses.trustedProxies.isEmpty {
        router.add(middleware: ClientAddressMiddleware(resolver: settings.clientAddresses))
    }
    HealthController(health: u.health, deliveryStallSeconds: settings.deliveryStallSeconds, probeLimit: settings.healthProbeLimit)
        .addRoutes(to: router)
    MetricsController(health: u.health, metrics: core.metrics, telemetry: telemetry).addRoutes(to: router)
    OpenAPIController().addRoutes(to: router)
    if let clock {
        TestClockController(clock: clock).addRoutes(to: router)
        TestStreamsController(hub: core.events, accounts: u.accounts).addRoutes(to: router)
    }
    TwilioCallbackController(
        notifications: u.notifications, replies: u.replies, authToken: settings.twilioAuthToken,
        baseURL: settings.callbackBaseURL
    ).addRoutes(to: router)
    if let codeCall = settings.codeCall { CodeCallController(codeCall: codeCall, now: { core.now }).addRoutes(to: router) }
    DeviceLinkController(deviceLinks: u.deviceLinks).addLinkRoute(to: router)

    let api = router.group().add(middleware: AuthMiddleware(accounts: u.accounts))
    AuthController(accounts: u.accounts).addPublicRoutes(to: api)
    let authenticated = api.group(context: AuthenticatedContext.self)
    AuthController(accounts: u.accounts).addRoutes(to: authenticated)
    ProfileController(
        profiles: u.profiles, accounts: u.accounts, sealedDetails: u.sealedDetails, ladders: u.ladders, exports: u.dataExports
    )
    .addRoutes(to: authenticated)
    CheckInController(checkIns: u.checkIns).addCheckInRoutes(to: api.group(context: CredentialContext.self))
    CheckInController(checkIns: u.checkIns).addRoutes(to: authenticated)
    DeviceLinkController(deviceLinks: u.deviceLinks).addRoutes(to: authenticated)
    PlanController(plans: u.plans).addRoutes(to: authenticated)
    PauseController(pauses: u.pauses).addRoutes(to: authenticated)
    LocationController(locations: u.locations).addRoutes(to: authenticated)
    ContactController(
        contacts: u.contacts, pings: u.pings, incidents: u.incidents, checkIns: u.checkIns, dailyCallSetups: u.dailyCallSetups
    )
    .addRoutes(to: authenticated)
    AlertController(incidents: u.incidents, sealedDetails: u.sealedDetails).addRoutes(to: authenticated)
    NotificationController(notifications: u.notifications, channels: u.channels, timeline: u.timeline)
        .addRoutes(to: authenticated)
    DrillController(drills: u.drills).addRoutes(to: authenticated)
    EventStreamController(checkIns: u.checkIns, live: u.live, metrics: core.metrics).addRoutes(to: authenticated)
    WebController(
        useCases: u, vapidPublicKey: settings.vapidPublicKey, lifeSignalNumber: core.configuration.lifeSignalNumber,
        now: { core.now }
    ).addRoutes(to: router)
    return router
}

/// What `buildApplication` returns: Hummingbird's application, run as it is, and the core
/// behind its routes, which tests reach through the `Testing` SPI to arrange and inspect.
public struct LifeSignalApplication: ApplicationProtocol {
    let application: Application<RouterResponder<AppRequestContext>>
    /// The core the routes' use cases share (tests: `@_spi(Testing) import LifeSignalServer`).
    @_spi(Testing) public let core: ServiceCore
    /// The delivery worker's, told the moment shutdown begins (see ``run()``).
    let workerShutdown: WorkerShutdown?
    /// The HTTP/1 connections and the streams held without a task (`LiveHTTP1Channel`).
    @_spi(Testing) public let connections: LiveConnections

    /// Hummingbird's run, with one thing first: on SIGTERM the delivery worker stops claiming
    /// and starting sends at once. The services are otherwise shut down one by one, the HTTP
    /// server (draining its requests) first; a worker left running meanwhile would keep sending.
    public func run() async throws {
        let workerShutdown = workerShutdown
        try await withGracefulShutdownHandler {
            try await application.run()
        } onGracefulShutdown: {
            workerShutdown?.stop()
        }
    }

    public var responder: RouterResponder<AppRequestContext> { application.responder }
    public var server: HTTPServerBuilder { application.server }
    public var eventLoopGroup: any EventLoopGroup { application.eventLoopGroup }
    public var configuration: ApplicationConfiguration { application.configuration }
    public var logger: Logger { application.logger }
    public func onServerRunning(_ channel: any Channel) async { await application.onServerRunning(channel) }
    public var services: [any Service] { application.services }
    public var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { application.processesRunBeforeServerStart }
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
