// The view a process that runs candidate code gets (a kta-worker, a python runner): bubblewrap
// builds it from nothing, so the process sees only what is named here — the system's programs and
// libraries (read-only), the files kta's worker needs (its binary, the cpu runtime, the hip
// plugin), a folder of sources the engine staged for it, a private /tmp, its own /proc of a PID
// namespace of its own (the engine's /proc/<pid> is not there), a minimal /dev (every device
// node for a GPU), no network — and an explicit, minimal environment. Everything else of the
// machine (results.db, the run folder, every kta cache folder, workspaces, home folders) does not
// exist for it. Its descriptors are inherited, so its socket and the memfds of shared buffers
// work as before. It runs as an unprivileged user of a user namespace of its own when the kernel
// allows one, else (as root without user namespaces) with every capability dropped.
//
// Where bubblewrap is missing or cannot build the namespaces, the process runs without this
// view; WorkerIsolation says so and why, and the owner shows it (the device's name in results).
// See docs/devices.md, "Isolation of candidate code".
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace kta::engine::ipc {

struct WorkerView {
  std::vector<std::filesystem::path> readable;  // shown read-only at their own paths
  // Shown read-write at their own paths (a persistent compile cache of the worker's own role);
  // made when missing.
  std::vector<std::filesystem::path> writable;
  bool gpu = false;              // every device node (/dev bound whole), else a minimal /dev
  std::vector<std::string> env;  // the whole environment inside, "NAME=value" each
  // Set for the process only, not for bwrap itself (LD_PRELOAD of a sanitizer runtime).
  std::vector<std::string> inner_env;
};

// What this machine allows, probed once per process.
struct WorkerIsolation {
  bool sandboxed = false;
  bool user_namespace = false;  // runs as nobody in a user namespace of its own
  std::string bwrap;            // the bwrap binary
  std::string why;              // when !sandboxed: why not
  // "bubblewrap (user, pid, mount, ipc, net namespaces)" or "none (<why>)".
  std::string describe() const;
};
const WorkerIsolation& worker_isolation();

// The command line that runs `argv` in `view` (argv unchanged when !isolation.sandboxed, or
// when argv[0] is a path that does not exist, so that the start fails by the program's name).
std::vector<std::string> isolated_argv(const WorkerIsolation& isolation, const WorkerView& view,
                                       const std::vector<std::string>& argv);

// The environment to start isolated_argv with: view.env, and view.inner_env too when bwrap does
// not run (with bwrap, isolated_argv sets those inside).
std::vector<std::string> spawn_environment(const WorkerIsolation& isolation,
                                           const WorkerView& view);

// The waitpid status of the process itself from that of its bwrap, which exits with 128 + N
// when the process was killed by signal N (a worker's own exit statuses are below 128).
int worker_status(const WorkerIsolation& isolation, int status);

// The environment a worker gets: PATH (the system's), HOME and TMPDIR (the private /tmp), LANG,
// and those of `names` that are set in `engine` (the engine's environment, as Settings read it);
// nothing else of it.
std::vector<std::string> worker_environment(const std::map<std::string, std::string>& engine,
                                            const std::vector<std::string>& names);

// A folder of this process (mode 0700 under the temporary folder, removed with the object) into
// which the engine copies the sources a worker compiles or imports; the worker sees it
// read-only. Only copies: the originals (a workspace, the task's folder) stay out of its view.
class StagingFolder {
 public:
  StagingFolder();
  ~StagingFolder();
  StagingFolder(const StagingFolder&) = delete;
  StagingFolder& operator=(const StagingFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Copies the folder of `source` (its files and, two levels deep, its subfolders; at most
  // 64 MiB) into a fresh subfolder; returns where `source` is in the copy (`source` itself when
  // it does not exist), or empty with *error.
  std::filesystem::path stage(const std::filesystem::path& source, std::string* error);

 private:
  std::filesystem::path path_;
  int next_ = 0;
};

}  // namespace kta::engine::ipc
