import FlyingSocks

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's socket pool with Nagle's algorithm turned off on every socket it waits on.
///
/// FlyingFox writes a response's head and its body in two writes. With Nagle's algorithm on, the
/// body's last partial segment waits for the client's ACK of the head, which a client delays by
/// up to 40 ms: every request after the first on a kept-alive connection took 44 ms on loopback,
/// where GitHub answers as soon as it has the bytes. The listening socket is one of those waited
/// on, and Linux copies the option to the connections it accepts.
struct NoDelaySocketPool: AsyncSocketPool {
  let base: any AsyncSocketPool

  func prepare() async throws { try await base.prepare() }

  func run() async throws { try await base.run() }

  func suspendSocket(_ socket: Socket, untilReadyFor events: Socket.Events) async throws {
    // A socket that is not TCP refuses the option; that is no reason to stop serving it.
    try? socket.setValue(true, for: BoolSocketOption(level: Int32(IPPROTO_TCP), name: TCP_NODELAY))
    try await base.suspendSocket(socket, untilReadyFor: events)
  }
}
