// The task `kta new torch2hip NAME --from model.py` writes from a probed PyTorch module: the
// module copied into the folder as reference and baseline (module mode, its init args), the
// tensors of get_inputs() and forward in declaration order with their dtypes, one shape param per
// distinct dimension size (the same size in several tensors is one param), the sizes seen as the
// visible grid, held-out points drawn by std.heldout.perturb, and a HIP launcher skeleton for the
// author to write. What the probe could not decide is a `TODO(author):` comment.
#pragma once

#include <string>

#include "engine/scaffold/module_probe.h"
#include "engine/scaffold/scaffold.h"

namespace kta::engine {

// `module_file` is the module's file name in the task folder, `module_text` its contents. A probe
// that maps to no task (no dimension larger than 1 to make a param of) is a scaffold with an
// error.
Scaffold scaffold_from_module(const std::string& name, const ModuleProbe& probe,
                              const std::string& module_file, const std::string& module_text);

}  // namespace kta::engine
