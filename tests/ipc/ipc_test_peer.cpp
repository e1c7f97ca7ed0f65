// ipc_test_peer: a child for the ipc tests. Serves requests on fd 3 as a kta-worker does and
// does what each asks: "echo" replies with the request, "fd" writes 'z' to the descriptor that
// came along, "spawn" starts a grandchild (sleep) in its process group and replies with its pid,
// "die" prints a last line and exits with status 7, "garbage" replies with something that is not
// JSON, "hang" never replies.
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "engine/ipc/channel.h"

extern char** environ;

namespace ipc = kta::engine::ipc;

namespace {

pid_t spawn_sleeper() {
  char sleep[] = "sleep", forever[] = "1000";
  char* argv[] = {sleep, forever, nullptr};
  pid_t pid = -1;
  return posix_spawnp(&pid, "sleep", nullptr, nullptr, argv, environ) == 0 ? pid : -1;
}

}  // namespace

int main() {
  for (;;) {
    int fd = -1;
    std::optional<ipc::json> q = ipc::receive_message(3, &fd);
    if (!q) return 0;
    std::string op = q->value("op", "");
    if (op == "die") {
      std::fprintf(stderr, "the peer gives up\n");
      return 7;
    }
    if (op == "hang") pause();
    if (op == "garbage") {
      const char text[] = "this is not json";
      send(3, text, sizeof text - 1, MSG_NOSIGNAL);
      continue;
    }
    ipc::json reply = {{"ok", true}, {"echo", *q}};
    if (op == "fd" && fd >= 0) reply["wrote"] = write(fd, "z", 1) == 1;
    if (op == "spawn") reply["pid"] = spawn_sleeper();
    if (fd >= 0) close(fd);
    if (!ipc::send_message(3, reply)) return 0;
  }
}
