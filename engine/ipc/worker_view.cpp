#include "engine/ipc/worker_view.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>

#include "engine/ipc/command.h"

namespace kta::engine::ipc {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
constexpr size_t kStageCap = size_t(64) << 20;

// The system's folders: programs, libraries, their configuration; /bin and the like are symlinks
// into /usr on merged-/usr systems and stay symlinks.
void add_system(std::vector<std::string>& a) {
  for (const char* p : {"/usr", "/etc", "/opt", "/sys"}) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) a.insert(a.end(), {"--ro-bind", p, p});
  }
  for (const char* p : {"/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"}) {
    std::error_code ec;
    if (fs::is_symlink(p, ec)) {
      a.insert(a.end(), {"--symlink", fs::read_symlink(p, ec).string(), p});
    } else if (fs::is_directory(p, ec)) {
      a.insert(a.end(), {"--ro-bind", p, p});
    }
  }
}

// The namespaces: a user namespace (as nobody) when allowed, else no capabilities at all.
void add_namespaces(std::vector<std::string>& a, bool user_namespace) {
  if (user_namespace) {
    a.insert(a.end(), {"--unshare-user", "--uid", "65534", "--gid", "65534"});
  } else {
    a.insert(a.end(), {"--cap-drop", "ALL"});
  }
  a.insert(a.end(), {"--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
                     "--unshare-cgroup-try", "--die-with-parent"});
}

std::vector<std::string> sandbox_argv(const std::string& bwrap, bool user_namespace,
                                      const WorkerView& view,
                                      const std::vector<std::string>& argv) {
  std::vector<std::string> a = {bwrap};
  add_namespaces(a, user_namespace);
  add_system(a);
  a.insert(a.end(), {"--proc", "/proc"});
  if (view.gpu) {
    a.insert(a.end(), {"--dev-bind", "/dev", "/dev"});
  } else {
    a.insert(a.end(), {"--dev", "/dev"});
  }
  a.insert(a.end(), {"--tmpfs", "/tmp"});
  for (const fs::path& r : view.readable) {
    std::error_code ec;
    if (r.empty() || !r.is_absolute() || !fs::exists(r, ec)) continue;
    a.insert(a.end(), {"--ro-bind", r.string(), r.string()});
  }
  for (const fs::path& w : view.writable) {
    std::error_code ec;
    if (w.empty() || !w.is_absolute()) continue;
    fs::create_directories(w, ec);
    if (fs::is_directory(w, ec)) a.insert(a.end(), {"--bind", w.string(), w.string()});
  }
  for (const std::string& e : view.inner_env) {
    size_t eq = e.find('=');
    if (eq != std::string::npos) a.insert(a.end(), {"--setenv", e.substr(0, eq), e.substr(eq + 1)});
  }
  a.insert(a.end(), {"--chdir", "/tmp", "--"});
  a.insert(a.end(), argv.begin(), argv.end());
  return a;
}

// Runs `true` in an empty view; empty when it worked, else bwrap's first line.
std::string probe(const std::string& bwrap, bool user_namespace) {
  CommandOptions o;
  o.timeout_s = 10;
  o.env = std::vector<std::string>{std::string("PATH=") + kPath};
  CommandResult r = run_command(sandbox_argv(bwrap, user_namespace, {}, {"true"}), o);
  if (r.ok()) return {};
  if (!r.started) return r.error;
  std::string line = r.output.substr(0, r.output.find('\n'));
  return line.empty() ? "bwrap exited with status " + std::to_string(r.exit_code) : line;
}

WorkerIsolation choose() {
  WorkerIsolation w;
  w.bwrap = "bwrap";
  for (const char* dir : {"/usr/bin", "/bin", "/usr/local/bin"}) {
    std::error_code ec;
    if (fs::exists(fs::path(dir) / "bwrap", ec)) w.bwrap = (fs::path(dir) / "bwrap").string();
  }
  std::string with_user = probe(w.bwrap, true);
  if (with_user.empty()) {
    w.sandboxed = w.user_namespace = true;
    return w;
  }
  // Root may build the other namespaces where user namespaces are off.
  std::string without = geteuid() == 0 ? probe(w.bwrap, false) : with_user;
  if (without.empty()) {
    w.sandboxed = true;
    return w;
  }
  w.why = with_user;
  return w;
}

}  // namespace

std::string WorkerIsolation::describe() const {
  if (!sandboxed) return "none (" + why + ")";
  return std::string("bubblewrap (") + (user_namespace ? "user, " : "no user namespace, ") +
         "pid, mount, ipc, net namespaces)";
}

const WorkerIsolation& worker_isolation() {
  static std::once_flag once;
  static WorkerIsolation chosen;
  std::call_once(once, [] { chosen = choose(); });
  return chosen;
}

std::vector<std::string> isolated_argv(const WorkerIsolation& isolation, const WorkerView& view,
                                       const std::vector<std::string>& argv) {
  // A program that is not there fails to start by its own name, as it would without bwrap.
  std::error_code ec;
  if (!isolation.sandboxed || argv.empty() ||
      (fs::path(argv[0]).is_absolute() && !fs::exists(argv[0], ec)))
    return argv;
  return sandbox_argv(isolation.bwrap, isolation.user_namespace, view, argv);
}

std::vector<std::string> spawn_environment(const WorkerIsolation& isolation,
                                           const WorkerView& view) {
  std::vector<std::string> env = view.env;
  if (!isolation.sandboxed) env.insert(env.end(), view.inner_env.begin(), view.inner_env.end());
  return env;
}

int worker_status(const WorkerIsolation& isolation, int status) {
  if (!isolation.sandboxed || !WIFEXITED(status)) return status;
  int code = WEXITSTATUS(status);
  return code > 128 && code < 128 + 65 ? code - 128 : status;
}

std::vector<std::string> worker_environment(const std::map<std::string, std::string>& engine,
                                            const std::vector<std::string>& names) {
  auto value = [&](const std::string& name) {
    auto it = engine.find(name);
    return it == engine.end() ? std::string() : it->second;
  };
  std::vector<std::string> env = {std::string("PATH=") + kPath, "HOME=/tmp", "TMPDIR=/tmp"};
  const std::string lang = value("LANG");
  env.push_back("LANG=" + (lang.empty() ? std::string("C.UTF-8") : lang));
  for (const std::string& name : names)
    if (std::string v = value(name); !v.empty()) env.push_back(name + "=" + v);
  return env;
}

StagingFolder::StagingFolder() {
  std::string tmpl = (fs::temp_directory_path() / "kta-stage-XXXXXX").string();
  if (mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
}

StagingFolder::~StagingFolder() {
  std::error_code ec;
  if (!path_.empty()) fs::remove_all(path_, ec);
}

fs::path StagingFolder::stage(const fs::path& source, std::string* error) {
  if (path_.empty()) {
    *error = "no staging folder for the worker's sources";
    return {};
  }
  std::error_code ec;
  // A source that is not there stays as it is: the worker fails to read it by its own name.
  if (!fs::exists(source, ec)) return source;
  const fs::path from = fs::absolute(source, ec).parent_path();
  const fs::path to = path_ / std::to_string(next_++);
  fs::create_directories(to, ec);
  size_t total = 0;
  auto it =
      fs::recursive_directory_iterator(from, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() >= 2) it.disable_recursion_pending();
    const fs::path rel = it->path().lexically_relative(from);
    std::error_code e;
    if (it->is_directory(e)) {
      fs::create_directories(to / rel, e);
    } else if (it->is_regular_file(e) && (total += it->file_size(e)) <= kStageCap) {
      fs::copy_file(it->path(), to / rel, fs::copy_options::overwrite_existing, e);
    }
  }
  const fs::path staged = to / source.filename();
  if (!fs::exists(staged, ec)) {
    *error = "cannot stage '" + source.string() + "' for the worker";
    return {};
  }
  return staged;
}

}  // namespace kta::engine::ipc
