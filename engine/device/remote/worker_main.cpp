// kta-worker: the process that runs candidate code for the engine. Started by RemoteDevice with
// its end of a socket pair as descriptor 3; see engine/device/remote/protocol.h.
#include <sys/prctl.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>

#include "engine/device/remote/worker_server.h"

int main(int argc, char** argv) {
  // --sandboxed: started by bwrap (engine/ipc/worker_view.h), whose PID namespace makes its init
  // the parent, and which kills the worker when the engine goes (--die-with-parent).
  bool sandboxed = argc == 3 && std::strcmp(argv[2], "--sandboxed") == 0;
  if ((argc != 2 && !sandboxed) || std::strcmp(argv[1], "--serve") != 0) {
    std::fprintf(
        stderr,
        "kta-worker: internal helper of kta; started by the engine as 'kta-worker --serve'\n");
    return 2;
  }
  // Die with the engine: a worker outliving it would keep running candidate code.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (!sandboxed && getppid() == 1) return 1;
  return kta::engine::remote::serve(3);
}
