#include "engine/device/python/find_python.h"

#include <unistd.h>

#include <map>
#include <mutex>
#include <sstream>

#include "engine/ipc/command.h"

namespace kta::engine {

namespace fs = std::filesystem;

namespace {

// Empty when `python` can import every module; else why not.
std::string probe(const std::string& python, const std::vector<std::string>& modules) {
  std::vector<std::string> argv = {
      python, "-c",
      "import importlib.util,sys\n"
      "m=[n for n in sys.argv[1:] if importlib.util.find_spec(n) is None]\n"
      "print('no module named ' + ', '.join(m) if m else 'ok')\n"
      "sys.exit(3 if m else 0)"};
  argv.insert(argv.end(), modules.begin(), modules.end());
  ipc::CommandResult r = ipc::run_command(argv);
  if (r.ok()) return {};
  if (r.timed_out) return "probe timed out";
  std::string out = r.started ? r.output : r.error;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  if (r.exit_code == 3) return out.substr(out.rfind('\n') + 1);
  if (out.size() > 200) out = out.substr(0, 200) + "...";
  return out.empty() ? "does not run" : out;
}

bool executable(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0;
}

PythonChoice choose(const PythonSearch& search, const std::vector<std::string>& modules) {
  PythonChoice c;
  auto tried = [&](const std::string& path, const std::string& why) {
    c.tried.push_back(path + " (" + why + ")");
  };
  if (!search.preferred.empty()) {
    std::string why = probe(search.preferred, modules);
    if (why.empty()) {
      c.path = search.preferred;
      return c;
    }
    tried("KTA_PYTHON=" + search.preferred, why);
  } else {
    c.tried.push_back("KTA_PYTHON (unset)");
  }
  std::vector<std::string> candidates;
  std::stringstream ss(search.path);
  for (std::string dir; std::getline(ss, dir, ':');) {
    if (dir.empty()) continue;
    fs::path p = fs::path(dir) / "python3";
    if (executable(p)) candidates.push_back(p.string());
  }
  candidates.push_back("/usr/bin/python3");
  std::map<std::string, bool> seen;
  for (const std::string& p : candidates) {
    std::error_code ec;
    std::string real = fs::weakly_canonical(p, ec).string();
    if (seen[real.empty() ? p : real]) continue;
    seen[real.empty() ? p : real] = true;
    if (!executable(p)) {
      tried(p, "not found");
      continue;
    }
    std::string why = probe(p, modules);
    if (why.empty()) {
      c.path = p;
      return c;
    }
    tried(p, why);
  }
  std::string list;
  for (const auto& m : modules) list += (list.empty() ? "" : ", ") + m;
  c.error = "no Python interpreter can import " + list + "; tried:";
  for (const auto& t : c.tried) c.error += " " + t + ";";
  c.error += " set KTA_PYTHON or install python3-torch (cmake/setup.sh)";
  return c;
}

}  // namespace

PythonChoice find_python(const PythonSearch& search, const std::vector<std::string>& modules) {
  static std::mutex mu;
  static std::map<std::pair<PythonSearch, std::vector<std::string>>, PythonChoice> cache;
  std::lock_guard lock(mu);
  auto key = std::make_pair(search, modules);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, choose(search, modules)).first;
  return it->second;
}

fs::path find_runner_script(const fs::path& configured) {
  if (!configured.empty()) return configured;
  return find_runner_file("kta_runner.py");
}

fs::path find_runner_file(const std::string& name, const fs::path& configured_runner) {
  std::error_code ec;
  std::vector<fs::path> places;
  if (!configured_runner.empty()) places.push_back(configured_runner.parent_path() / name);
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    places.push_back(self.parent_path() / name);
    places.push_back(self.parent_path() / "../share/kta/runner" / name);
  }
  places.push_back(fs::path(KTA_SOURCE_ROOT) / "engine" / "device" / "python" / name);
  for (const fs::path& p : places)
    if (fs::exists(p, ec)) return p;
  return {};
}

}  // namespace kta::engine
