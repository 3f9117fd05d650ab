import Glibc

/// One object per thread (a `pthread` key): each thread sees only the one it set, which
/// is released when the thread ends. Reading it is one `pthread_getspecific`, no lock.
public final class ThreadLocalSlot<Value: AnyObject>: @unchecked Sendable {
    @usableFromInline let key: pthread_key_t

    public init() {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        self.key = key
    }

    deinit { pthread_key_delete(key) }

    /// The calling thread's object, if it set one.
    @inlinable
    public var value: Value? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<Value>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Sets the calling thread's object (kept until the thread ends; set once per thread).
    public func set(_ value: Value) {
        pthread_setspecific(key, Unmanaged.passRetained(value as AnyObject).toOpaque())
    }
}
