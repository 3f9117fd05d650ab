import Dispatch
import Synchronization

/// A piece of work started on another thread at once, whose result (a value or its typed
/// error) the starter collects later with `wait`: for reading or walking something while
/// the caller prepares what will need it.
public final class BackgroundResult<Value: Sendable, Failure: Error>: Sendable {
    /// Set once, before `finished` is signalled.
    private let result = Mutex<Result<Value, Failure>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts `work` on a global queue.
    public init(_ work: @escaping @Sendable () throws(Failure) -> Value) {
        DispatchQueue.global().async { [self] in
            let outcome: Result<Value, Failure>
            do throws(Failure) {
                outcome = .success(try work())
            } catch {
                outcome = .failure(error)
            }
            result.withLock { $0 = outcome }
            finished.signal()
        }
    }

    /// Blocks until the work is done and returns what it gave; call once.
    public func wait() -> Result<Value, Failure> {
        finished.wait()
        // Set before the signal, so never nil here.
        return result.withLock { $0! }
    }
}
