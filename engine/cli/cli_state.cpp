#include <unistd.h>

#include "engine/cli/commands.h"

namespace kta::cli {

lang::LoadOptions CliState::load_options() const {
  lang::LoadOptions o;
  o.search_path = settings.module_path;
  o.stdlib_dir = settings.stdlib_dir;
  return o;
}

bool CliState::color_stderr() const { return settings.color && isatty(STDERR_FILENO) != 0; }

}  // namespace kta::cli
