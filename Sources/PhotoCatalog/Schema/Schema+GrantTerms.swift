/// Schema step: rule grants, exclusions, expiry and one-time runs.
///
/// - `grants.expires_at_ns` (NULL: never) and `grants.once_owner` (`PID:START:BOOT-ID` of
///   the `photofs run --once` it was made for, NULL: none).
/// - `apps.grants_expire_s`: the app's default grant lifetime in seconds (NULL: none) and
///   `apps.once_owner`: its one-time run going on now.
/// - `grant_rules`: an app's rule grants in the order made, with the same two columns.
/// - `grant_exclusions`: assets a rule covers that were deselected one by one.
/// Both new tables follow their app (ON DELETE/UPDATE CASCADE); existing grants last for
/// good, as before.
extension Schema {
    static let grantTermsStep = """
        ALTER TABLE grants ADD COLUMN expires_at_ns INTEGER;
        ALTER TABLE grants ADD COLUMN once_owner TEXT;
        ALTER TABLE apps ADD COLUMN grants_expire_s INTEGER;
        ALTER TABLE apps ADD COLUMN once_owner TEXT;
        CREATE TABLE grant_rules (
            app TEXT NOT NULL REFERENCES apps(name) ON DELETE CASCADE ON UPDATE CASCADE,
            position INTEGER NOT NULL,
            filter TEXT NOT NULL,
            granted_at_ns INTEGER NOT NULL,
            expires_at_ns INTEGER,
            once_owner TEXT,
            PRIMARY KEY (app, position)
        ) WITHOUT ROWID;
        CREATE TABLE grant_exclusions (
            app TEXT NOT NULL REFERENCES apps(name) ON DELETE CASCADE ON UPDATE CASCADE,
            asset_id TEXT NOT NULL,
            PRIMARY KEY (app, asset_id)
        ) WITHOUT ROWID;
        """
}
