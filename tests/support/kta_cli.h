// Running the kta binary from end-to-end tests: one command, its exit status and both output
// streams (captured in files in a scratch folder), and reading files back.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
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

// `binary args` through the shell, stdout and stderr into `dir`/stdout and `dir`/stderr.
inline KtaRun run_kta(const std::string& binary, const std::filesystem::path& dir,
                      const std::string& args) {
  std::string cmd =
      binary + " " + args + " >" + (dir / "stdout").string() + " 2>" + (dir / "stderr").string();
  int rc = std::system(cmd.c_str());
  return {WIFEXITED(rc) ? WEXITSTATUS(rc) : -1, slurp(dir / "stdout"), slurp(dir / "stderr")};
}

}  // namespace kta::test
