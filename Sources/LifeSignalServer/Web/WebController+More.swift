import Foundation
import HTTPTypes
import Hummingbird
import LifeSignalCore
import LifeSignalModels

extension WebController {
    func addMoreRoutes(to web: RouterGroup<WebContext>) {}
}
