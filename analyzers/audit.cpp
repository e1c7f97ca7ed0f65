// audit_files: runs the per-file audits (each in a forked child unless told otherwise), then
// applies suppressions and the baseline.
#include "analyzers/audit.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <tuple>

#include "analyzers/audit_json.h"
#include "analyzers/file_audit.h"
#include "analyzers/shapes.h"
#include "analyzers/suppression.h"
#include "engine/ipc/child_process.h"

namespace kta::analyzers {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// A file that takes longer than this is reported as a failure, not waited on forever.
constexpr auto kFileTimeout = std::chrono::seconds(120);

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<std::string> check_names() {
  std::vector<std::string> names;
  for (const CheckInfo& c : check_catalog())
    if (c.name != kSuppressionCheck) names.push_back(c.name);
  return names;
}

// One file's audit, running in a forked child.
struct Child {
  engine::ipc::ChildProcess process;
  size_t index = 0;
  std::string data;  // what it wrote so far: the audit's JSON
  Clock::time_point started;
  bool timed_out = false;
};

std::string describe_status(int status, bool timed_out) {
  if (timed_out)
    return fmt::format("the analyzer took longer than {} s on this file and was stopped",
                       kFileTimeout.count());
  if (WIFSIGNALED(status))
    return fmt::format("the analyzer crashed on this file (signal {}: {})", WTERMSIG(status),
                       strsignal(WTERMSIG(status)));
  return fmt::format("the analyzer exited with status {} on this file", WEXITSTATUS(status));
}

// The child's side: audits `file` and writes the result as JSON to `out_fd`.
int audit_in_child(const fs::path& file, const ShapeSet& shapes, const AuditOptions& options,
                   int out_fd) {
  // Whatever Clang or LLVM would print (a crash's stack trace included) stays out of the
  // caller's stderr: the result, or the child's exit status, is what the caller gets.
  if (int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC); null >= 0) {
    ::dup2(null, STDERR_FILENO);
    if (null != STDERR_FILENO) ::close(null);
  }
  if (options.before_file) options.before_file(file);
  std::string out = to_json(audit_one_file(file, shapes, options.include_dirs)).dump();
  for (size_t at = 0; at < out.size();) {
    ssize_t n = ::write(out_fd, out.data() + at, out.size() - at);
    if (n <= 0 && errno != EINTR) return 3;
    if (n > 0) at += static_cast<size_t>(n);
  }
  return 0;
}

Child start_child(const std::vector<fs::path>& files, size_t index, const ShapeSet& shapes,
                  const AuditOptions& options) {
  Child c;
  c.index = index;
  c.started = Clock::now();
  auto failed = c.process.fork(
      [&](int out_fd) { return audit_in_child(files[index], shapes, options, out_fd); });
  if (failed) throw std::runtime_error(failed->text("the analyzer"));
  return c;
}

// Takes what the child wrote; true when it is done: its output closed, or its time is up.
bool advance(Child& c, short revents) {
  if ((revents & (POLLIN | POLLHUP | POLLERR)) != 0 &&
      !engine::ipc::read_available(c.process.output_fd(), &c.data, SIZE_MAX))
    return true;
  if (Clock::now() - c.started > kFileTimeout) {
    c.timed_out = true;
    return true;
  }
  return false;
}

// Reaps the child (killing its group when its time is up) and reads its result.
FileAudit finish(Child& c, const fs::path& file) {
  int status = c.timed_out ? c.process.kill() : c.process.wait();
  FileAudit out;
  bool clean_exit = !c.timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (clean_exit) {
    try {
      out = from_json_audit(nlohmann::json::parse(c.data));
    } catch (const std::exception& e) {
      out.failure = std::string("unreadable result from the analyzer: ") + e.what();
    }
  } else {
    out.failure = describe_status(status, c.timed_out);
  }
  out.file = file;
  return out;
}

// Audits each file in a child process, `jobs` at a time; a crash or hang is that file's failure.
std::vector<FileAudit> run_isolated(const std::vector<fs::path>& files, const ShapeSet& shapes,
                                    const AuditOptions& options) {
  std::vector<FileAudit> results(files.size());
  unsigned jobs = options.jobs ? options.jobs : std::max(1u, std::thread::hardware_concurrency());
  std::vector<Child> running;
  size_t next = 0;
  while (next < files.size() || !running.empty()) {
    while (next < files.size() && running.size() < jobs)
      running.push_back(start_child(files, next++, shapes, options));
    std::vector<pollfd> polls;
    for (const Child& c : running) polls.push_back({c.process.output_fd(), POLLIN, 0});
    ::poll(polls.data(), polls.size(), 200);
    // Backwards, so that erasing a finished child keeps the indices of `polls` in step.
    for (size_t i = running.size(); i-- > 0;) {
      if (!advance(running[i], polls[i].revents)) continue;
      results[running[i].index] = finish(running[i], files[running[i].index]);
      running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
    }
  }
  return results;
}

std::vector<FileAudit> run_all(const std::vector<fs::path>& files, const ShapeSet& shapes,
                               const AuditOptions& options) {
  if (options.isolate) return run_isolated(files, shapes, options);
  std::vector<FileAudit> results;
  for (const fs::path& f : files)
    results.push_back(audit_one_file(f, shapes, options.include_dirs));
  return results;
}

std::string normalize(std::string_view s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

// What makes two findings "the same" across files: check, code and message, not position.
std::string baseline_key(const Finding& f) {
  return f.check + '\x1f' + normalize(f.snippet) + '\x1f' + f.message;
}

void finalize(FileAudit& audit, const std::vector<std::string>& names) {
  std::string file = audit.file.string();
  for (Finding& f : audit.findings) f.file = file;
  if (audit.failure.empty()) apply_suppressions(file, read_text(audit.file), names, audit.findings);
  std::stable_sort(
      audit.findings.begin(), audit.findings.end(), [](const Finding& a, const Finding& b) {
        return std::tie(a.line, a.column, a.check) < std::tie(b.line, b.column, b.check);
      });
}

}  // namespace

const std::vector<CheckInfo>& check_catalog() {
  static const std::vector<CheckInfo> catalog = {
      {"kta-shape-literal", "error",
       "literal equal to a visible shape value (or a product or quotient of two) in index math, "
       "bounds, comparisons, array sizes, launch math or arguments"},
      {"kta-shape-branch", "error",
       "branch on a size parameter against a literal that leaves no general path"},
      {"kta-unguarded-index", "error",
       "global memory indexed by the thread index with no bounds check against a size parameter"},
      {"kta-ignored-size-param", "warning", "kernel size parameter that is never read"},
      {"kta-fixed-launch-geometry", "error",
       "kernel launch whose grid does not depend on any size"},
      {"kta-unchecked-vector-tail", "warning",
       "vector loads or stores with no handling of the elements past the last full vector"},
      {"kta-hardcoded-warp-size", "warning",
       "warp size written as 32 or 64 in lane math, shuffles or reduction loops instead of "
       "warpSize"},
      {std::string(kSuppressionCheck), "warning",
       "suppression comment without a reason, or naming an unknown check"},
  };
  return catalog;
}

std::vector<FileAudit> audit_files(const std::vector<fs::path>& files,
                                   const AuditOptions& options) {
  ShapeSet shapes(options.shapes);
  std::vector<std::string> names = check_names();
  std::vector<FileAudit> results = run_all(files, shapes, options);
  for (FileAudit& a : results) finalize(a, names);
  if (!options.baseline || options.all) return results;

  std::error_code ec;
  if (!fs::is_regular_file(*options.baseline, ec))
    throw std::invalid_argument(
        fmt::format("baseline '{}' is not a readable file", options.baseline->string()));
  std::vector<FileAudit> base = run_all({*options.baseline}, shapes, options);
  finalize(base[0], names);
  std::map<std::string, int> known;
  for (const Finding& f : base[0].findings) ++known[baseline_key(f)];
  for (FileAudit& a : results) {
    std::map<std::string, int> left = known;  // each baseline finding excuses one per file
    a.findings.erase(std::remove_if(a.findings.begin(), a.findings.end(),
                                    [&](const Finding& f) {
                                      auto it = left.find(baseline_key(f));
                                      if (it == left.end() || it->second == 0) return false;
                                      --it->second;
                                      return true;
                                    }),
                     a.findings.end());
  }
  return results;
}

bool reaches(const std::vector<FileAudit>& audits, const std::string& level) {
  for (const FileAudit& a : audits) {
    if (!a.failure.empty() || !a.parse_errors.empty()) return true;
    for (const Finding& f : a.findings)
      if (level == "warning" || f.severity == "error") return true;
  }
  return false;
}

}  // namespace kta::analyzers
