// Running the kta binary from end-to-end tests: one command, its exit status and both output
// streams (captured in files in a scratch folder), and reading files back.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace kta::test {

inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct KtaRun {
  int status = -1;  // exit status; -1 when killed by a signal
  std::string out, err;
};

// Variables set for the one kta process (its Settings), never in the test process itself.
using Env = std::map<std::string, std::string>;

// `binary args` through the shell with `env` added to its environment, stdout and stderr into
// `dir`/stdout and `dir`/stderr.
inline KtaRun run_kta(const std::string& binary, const std::filesystem::path& dir,
                      const std::string& args, const Env& env = {}) {
  std::string assignments;
  for (const auto& [name, value] : env) {
    std::string quoted = "'";
    for (char c : value) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    assignments += name + "=" + quoted + "' ";
  }
  std::string cmd = assignments + binary + " " + args + " >" + (dir / "stdout").string() + " 2>" +
                    (dir / "stderr").string();
  int rc = std::system(cmd.c_str());
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
}

}  // namespace kta::test
