import DaemonCore

extension Logger {
    /// This log as the core's (`DaemonLog`): a line about an app carries its journal field.
    var daemonLog: DaemonLog {
        DaemonLog { [self] level, message, apps in
            let fields = apps.map(Field.app)
            switch level {
            case .debug: debug(message(), fields: fields)
            case .info: info(message(), fields: fields)
            case .warning: warning(message(), fields: fields)
            case .error: error(message(), fields: fields)
            }
        }
    }
}
