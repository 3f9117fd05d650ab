extension AccessState {
    /// Revokes every grant and rule made for the one-time run `owner` of app `name`, and
    /// ends the run if it is the app's running one.
    public mutating func endOnceRun(of name: String, owner: RunOwner) {
        guard var app = apps[name] else { return }
        app.rules.removeAll { $0.terms.once == owner }
        if app.rules.isEmpty { app.exclusions = [] }
        if app.onceRun == owner { app.onceRun = nil }
        apps[name] = app
        if let list = grants[name], list.contains(where: { $0.terms.once == owner }) {
            grants[name] = list.filter { $0.terms.once != owner }
        }
    }

    /// This state without what has ended by itself: grants and rules expired by `now`, and
    /// everything of one-time runs whose process `isRunning` says is gone. What the daemon's
    /// timer installs.
    public func ending(at now: Int64, isRunning: (RunOwner) -> Bool) -> AccessState {
        var next = self
        var finished = Set<RunOwner>()
        var alive = Set<RunOwner>()
        func gone(_ owner: RunOwner?) -> Bool {
            guard let owner else { return false }
            if finished.contains(owner) { return true }
            if alive.contains(owner) { return false }
            if isRunning(owner) {
                alive.insert(owner)
                return false
            }
            finished.insert(owner)
            return true
        }
        for (name, app) in apps {
            var changed = app
            changed.rules.removeAll { $0.terms.hasExpired(at: now) || gone($0.terms.once) }
            if changed.rules.isEmpty { changed.exclusions = [] }
            if gone(changed.onceRun) { changed.onceRun = nil }
            if changed != app { next.apps[name] = changed }
        }
        for (name, list) in grants where list.contains(where: { $0.terms.hasExpired(at: now) || gone($0.terms.once) }) {
            next.grants[name] = list.filter { !($0.terms.hasExpired(at: now) || gone($0.terms.once)) }
        }
        return next
    }

    /// The earliest expiry of any grant or rule (nanoseconds since 1970), nil when none expires.
    public var nextExpiry: Int64? {
        var earliest: Int64? = nil
        for app in apps.values {
            for rule in app.rules { if let at = rule.terms.expiresAtNanoseconds { earliest = min(earliest ?? at, at) } }
        }
        for list in grants.values {
            for grant in list { if let at = grant.terms.expiresAtNanoseconds { earliest = min(earliest ?? at, at) } }
        }
        return earliest
    }

    /// Every one-time run on record (running, or owning a grant or rule).
    public var runOwners: Set<RunOwner> {
        var owners = Set<RunOwner>()
        for app in apps.values {
            if let run = app.onceRun { owners.insert(run) }
            for rule in app.rules { if let once = rule.terms.once { owners.insert(once) } }
        }
        for list in grants.values {
            for grant in list { if let once = grant.terms.once { owners.insert(once) } }
        }
        return owners
    }
}
