// The worker side of the protocol (see protocol.h): hosts a cpu device and answers the engine's
// requests until the socket closes. Candidate code runs here, so this process may crash, hang or
// run out of memory at any time; the engine's RemoteDevice notices and starts a fresh one.
#pragma once

namespace kta::engine::remote {

// Serves requests on `socket`; returns the process exit status.
int serve(int socket);

}  // namespace kta::engine::remote
