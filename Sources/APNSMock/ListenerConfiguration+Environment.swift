import APNSCore
import HTTP2

extension ListenerConfiguration {
    /// A listener that stands for `environment`: its label is the environment's raw value, which
    /// `ConnectionInfo.environment` reads back.
    init(host: String, port: Int, useTLS: Bool, environment: APNsEnvironment) {
        self.init(host: host, port: port, useTLS: useTLS, label: environment.rawValue)
    }
}
